#include "services/checkpoint/dcpoptimizer.h"

#include "services/checkpoint/dcpreader.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/util/names.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace ingot {

using nlohmann::json;

namespace {
struct DcpText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

QString qs(const std::string &s)
{
    return tensorNameText(s);
}

bool startsWith(const std::string &s, const std::string &p)
{
    return s.compare(0, p.size(), p) == 0;
}

// "optim." or "optimizer." followed by "state." or "param_groups.": the part, and the rest after it.
bool optimizerPart(const std::string &fqn, bool *state, std::string *rest)
{
    for (const char *top : {"optim.", "optimizer."})
        for (const char *part : {"state.", "param_groups."}) {
            const std::string p = std::string(top) + part;
            if (startsWith(fqn, p) && fqn.size() > p.size()) {
                *state = part[0] == 's';
                *rest = fqn.substr(p.size());
                return true;
            }
        }
    return false;
}

// "<parameter>.<key>": the key is after the last dot (state and setting names have none).
bool splitKey(const std::string &rest, std::string *param, std::string *key)
{
    const std::size_t dot = rest.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
        return false;
    *param = rest.substr(0, dot);
    *key = rest.substr(dot + 1);
    return true;
}

// torch's nested layout: param_groups.<index>.<key>.
bool groupIndex(const std::string &param, int *group)
{
    if (param.empty() || param.size() > 6 || param.find_first_not_of("0123456789") != std::string::npos)
        return false;
    *group = std::stoi(param);
    return true;
}

// A value of a simple type as JSON: None, a bool, a number, a string (bytes: not UTF-8 is replaced when written), a
// list or tuple of those, a dict of those by string keys. Anything else (a tensor, a class, bytes) is refused.
bool simpleValue(const PickleValue *v, int depth, json *out)
{
    using K = PickleValue::Kind;
    if (!v || depth > 8)
        return false;
    switch (v->kind) {
    case K::None:
        *out = nullptr;
        return true;
    case K::Bool:
        *out = v->b;
        return true;
    case K::Int:
        *out = v->i;
        return true;
    case K::Float:
        *out = v->f;  // not finite: written as null (JSON has no such numbers)
        return true;
    case K::Str:
        *out = v->s;
        return true;
    case K::List:
    case K::Tuple:
        *out = json::array();
        for (const PV &x : v->items) {
            json j;
            if (!simpleValue(x.get(), depth + 1, &j))
                return false;
            out->push_back(std::move(j));
        }
        return true;
    case K::Dict:
        *out = json::object();
        for (const auto &[k, x] : v->dict) {
            json j;
            if (!k || !k->isStr() || !simpleValue(x.get(), depth + 1, &j))
                return false;
            (*out)[k->s] = std::move(j);
        }
        return true;
    default:
        return false;
    }
}
}  // namespace

void planDcpOptimizer(const DcpMetadata &md, const std::map<std::string, DcpParamName> &params, ConsolidationPlan *plan)
{
    for (const auto &[name, p] : params)
        plan->parameterNames[name] = p.output;
    std::set<std::string> names;
    const auto outputName = [&](const std::string &param) {
        const auto it = params.find(param);
        return it == params.end() ? std::string() : it->second.output;
    };
    for (const DcpTensor &t : md.tensors) {
        bool state = false;
        std::string rest, param, key;
        if (!optimizerPart(t.fqn, &state, &rest))
            continue;
        ConsolidatePlanEntry e;
        e.source = t.fqn;
        e.dtype = t.dtype;
        e.shape = t.size;
        e.bytes = t.bytes();
        for (const DcpChunk &c : t.chunks) {
            std::int64_t n = 0;
            checkedNumel(c.sizes, &n);
            e.dcpChunks += n > 0 ? 1 : 0;
        }
        int group = -1;
        if (!splitKey(rest, &param, &key)) {
            plan->problems << DcpText::tr("The optimizer's entry %1 is not named <parameter>.<state>.").arg(qs(t.fqn));
            continue;
        }
        if (!state) {
            // A setting saved as a tensor (a tensor lr): under its group's or parameter's name.
            const std::string out = groupIndex(param, &group) ? param : outputName(param);
            e.name = "param_groups." + (out.empty() ? param : out) + "." + key;
        } else {
            const auto it = params.find(param);
            if (it == params.end()) {
                plan->problems << DcpText::tr("The optimizer state %1 belongs to no tensor of the model.").arg(qs(t.fqn));
                continue;
            }
            e.name = it->second.output + "." + key;
            // A state of the parameter's shape (exp_avg, exp_avg_sq) is reordered as the parameter is.
            e.ropeHeads = t.size == it->second.shape ? it->second.ropeHeads : 0;
        }
        if (!names.insert(e.name).second)
            plan->problems << DcpText::tr("Two optimizer tensors would be named %1 in the output.").arg(qs(e.name));
        plan->optimizerEntries.append(e);
    }
    for (const DcpBytes &b : md.bytes) {
        bool state = false;
        std::string rest;
        OptimizerValue v;
        v.source = b.fqn;
        if (!optimizerPart(b.fqn, &state, &rest))
            continue;
        std::string param;
        if (!splitKey(rest, &param, &v.key)) {
            plan->problems << DcpText::tr("The optimizer's entry %1 is not named <parameter>.<key>.").arg(qs(b.fqn));
            continue;
        }
        v.state = state;
        if (state || !groupIndex(param, &v.group)) {
            v.param = outputName(param);
            if (v.param.empty()) {
                plan->problems << DcpText::tr("The optimizer's value %1 belongs to no tensor of the model.").arg(qs(b.fqn));
                continue;
            }
        }
        plan->optimizerValues.append(v);
    }
}

QString optimizerProblem(const ConsolidationPlan &plan)
{
    if (plan.checkpoint.layout != ShardLayout::Dcp)
        return DcpText::tr("Ingot writes the optimizer state of PyTorch Distributed Checkpoints (DCP) only; the backend's XLA "
                           "checkpoints carry theirs through a re-shard. Consolidate without the optimizer state.");
    if (!plan.hasOptimizer())
        return DcpText::tr("%1 holds no optimizer state (no \"optim\" or \"optimizer\" entries beside the model): consolidate "
                           "the weights only.").arg(displayName(plan.checkpoint.root));
    return {};
}

QString optimizerFileName(int index, int count)
{
    if (count == 1)
        return QStringLiteral("optimizer.safetensors");
    return QStringLiteral("optimizer-%1-of-%2.safetensors").arg(index + 1, 5, 10, QLatin1Char('0')).arg(count, 5, 10, QLatin1Char('0'));
}

QString optimizerIndexName()
{
    return QStringLiteral("optimizer.safetensors.index.json");
}

QString optimizerValuesName()
{
    return QStringLiteral("optimizer_param_groups.json");
}

bool optimizerValuesJson(DcpCheckpoint &ckpt, const ConsolidationPlan &plan, std::string *text, QString *error)
{
    std::map<int, json> groups;
    json doc = json::object();
    for (const OptimizerValue &v : plan.optimizerValues) {
        TorchFile tf;
        if (!ckpt.openValue(v.source, &tf, error)) {
            *error = DcpText::tr("The optimizer's value %1 cannot be read: %2").arg(qs(v.source), *error);
            return false;
        }
        json value;
        if (!simpleValue(tf.root().get(), 0, &value)) {
            *error = DcpText::tr("The optimizer's value %1 is not a simple value (None, a bool, a number, a string, or a list of "
                                 "them): Ingot writes only those.").arg(qs(v.source));
            return false;
        }
        if (v.group >= 0 && v.key == "params" && value.is_array())
            for (json &p : value)  // the parameters' names in the model, as the output names them
                if (const auto it = p.is_string() ? plan.parameterNames.find(p.get<std::string>()) : plan.parameterNames.end();
                    it != plan.parameterNames.end())
                    p = it->second;
        if (v.group >= 0)
            groups[v.group][v.key] = std::move(value);
        else
            doc[v.state ? "state" : "parameters"][v.param][v.key] = std::move(value);
    }
    if (!groups.empty()) {
        doc["param_groups"] = json::array();
        for (auto &[index, g] : groups)
            doc["param_groups"].push_back(std::move(g));
    }
    *text = doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    return true;
}

}  // namespace ingot
