#include "services/checkpoint/formats/pickle.h"

#include <cstring>
#include <set>
#include <unordered_map>

namespace ingot {

PickleArena::~PickleArena()
{
    for (auto &w : nodes)
        if (PV p = w.lock()) {
            p->items.clear();
            p->dict.clear();
        }
}

std::int64_t TensorRef::numel() const
{
    std::int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

bool TensorRef::isContiguous() const
{
    std::int64_t expected = 1;
    for (int i = int(shape.size()) - 1; i >= 0; --i) {
        if (shape[size_t(i)] != 1 && stride[size_t(i)] != expected)
            return false;
        expected *= shape[size_t(i)];
    }
    return true;
}

const PickleValue *PickleValue::get(std::string_view key) const
{
    if (kind != Kind::Dict)
        return nullptr;
    for (const auto &[k, v] : dict)
        if (k && k->kind == Kind::Str && k->s == key)
            return v.get();
    return nullptr;
}

namespace {

// The globals a torch checkpoint may name. Everything else is refused.
bool allowedGlobal(const std::string &g)
{
    static const std::set<std::string> exact = {
        "collections.OrderedDict",
        "torch._utils._rebuild_tensor_v2",
        "torch._utils._rebuild_parameter",
        "torch._utils._rebuild_parameter_with_state",
        "torch.Size",
        "_codecs.encode",
        "torch.storage.UntypedStorage",
    };
    if (exact.count(g))
        return true;
    return dtypeFromTorchStorage(g) != DType::Unknown || dtypeFromTorchDtype(g) != DType::Unknown;
}

struct Machine {
    std::shared_ptr<PickleArena> arena;
    std::string_view in;
    std::size_t pos = 0;
    std::size_t maxItems;
    std::vector<PV> stack;
    std::vector<std::size_t> marks;
    std::unordered_map<std::uint64_t, PV> memo;
    std::string error;

    bool fail(const std::string &why)
    {
        if (error.empty())
            error = why + " (at byte " + std::to_string(pos) + ")";
        return false;
    }
    bool need(std::size_t n)
    {
        if (in.size() - pos < n)
            return fail("the pickle ends too early: truncated or corrupt");
        return true;
    }
    std::uint64_t le(int n)
    {
        std::uint64_t v = 0;
        for (int k = 0; k < n; ++k)
            v |= std::uint64_t(std::uint8_t(in[pos + std::size_t(k)])) << (8 * k);
        pos += std::size_t(n);
        return v;
    }
    PV make(PickleValue::Kind k)
    {
        auto v = std::make_shared<PickleValue>();
        v->kind = k;
        if (k == PickleValue::Kind::List || k == PickleValue::Kind::Tuple || k == PickleValue::Kind::Dict)
            arena->nodes.push_back(v);
        return v;
    }
    bool push(PV v)
    {
        if (stack.size() >= maxItems)
            return fail("the pickle is too large");
        stack.push_back(std::move(v));
        return true;
    }
    bool pop(PV *out)
    {
        if (stack.empty() || (!marks.empty() && stack.size() <= marks.back()))
            return fail("malformed pickle: stack underflow");
        *out = std::move(stack.back());
        stack.pop_back();
        return true;
    }
    bool popMark(std::vector<PV> *items)
    {
        if (marks.empty())
            return fail("malformed pickle: no mark");
        const std::size_t m = marks.back();
        marks.pop_back();
        if (m > stack.size())
            return fail("malformed pickle: bad mark");
        items->assign(std::make_move_iterator(stack.begin() + long(m)), std::make_move_iterator(stack.end()));
        stack.resize(m);
        return true;
    }
    bool text(std::size_t n, PickleValue::Kind kind)
    {
        if (!need(n))
            return false;
        PV v = make(kind);
        v->s.assign(in.data() + pos, n);
        pos += n;
        return push(std::move(v));
    }
    bool memoPut(std::uint64_t idx)
    {
        if (stack.empty())
            return fail("malformed pickle: nothing to memoize");
        if (memo.size() >= maxItems)
            return fail("the pickle is too large");
        memo[idx] = stack.back();
        return true;
    }
    bool memoGet(std::uint64_t idx)
    {
        auto it = memo.find(idx);
        if (it == memo.end())
            return fail("malformed pickle: unknown memo entry");
        return push(it->second);
    }
    bool global(const std::string &module, const std::string &name)
    {
        const std::string g = module + "." + name;
        if (!allowedGlobal(g))
            return fail("refused: the checkpoint's pickle references " + g +
                        ", which is not a tensor, storage or container type (a checkpoint never needs it; loading "
                        "it could run code)");
        PV v = make(PickleValue::Kind::Global);
        v->s = g;
        return push(std::move(v));
    }
    static bool asInt(const PV &v, std::int64_t *out)
    {
        if (!v || (v->kind != PickleValue::Kind::Int && v->kind != PickleValue::Kind::Bool))
            return false;
        *out = v->kind == PickleValue::Kind::Bool ? v->b : v->i;
        return true;
    }
    static bool intTuple(const PV &v, std::vector<std::int64_t> *out)
    {
        if (!v || (v->kind != PickleValue::Kind::Tuple && v->kind != PickleValue::Kind::List))
            return false;
        out->clear();
        for (const PV &x : v->items) {
            std::int64_t n;
            if (!asInt(x, &n))
                return false;
            out->push_back(n);
        }
        return true;
    }
    bool reduce()
    {
        PV args, fn;
        if (!pop(&args) || !pop(&fn))
            return false;
        if (!fn || fn->kind != PickleValue::Kind::Global || !args || args->kind != PickleValue::Kind::Tuple)
            return fail("malformed pickle: REDUCE of something that is not an allowed callable");
        const std::string &g = fn->s;
        const auto &a = args->items;
        if (g == "collections.OrderedDict") {
            if (!a.empty())
                return fail("unsupported OrderedDict construction");
            return push(make(PickleValue::Kind::Dict));
        }
        if (g == "torch.Size") {
            PV t = make(PickleValue::Kind::Tuple);
            if (!a.empty() && a[0] && (a[0]->kind == PickleValue::Kind::Tuple || a[0]->kind == PickleValue::Kind::List))
                t->items = a[0]->items;
            return push(std::move(t));
        }
        if (g == "_codecs.encode") {
            // Protocol 2 writes bytes as _codecs.encode(str, "latin1"): undo that, nothing else.
            if (a.size() != 2 || !a[0]->isStr() || !a[1]->isStr() || (a[1]->s != "latin1" && a[1]->s != "latin-1"))
                return fail("unsupported _codecs.encode call");
            PV b = make(PickleValue::Kind::Bytes);
            // The str is UTF-8 here; latin1 encoding maps each code point below 256 to one byte.
            const std::string &u = a[0]->s;
            for (std::size_t k = 0; k < u.size(); ++k) {
                const unsigned char c = static_cast<unsigned char>(u[k]);
                if (c < 0x80)
                    b->s.push_back(char(c));
                else if ((c & 0xE0) == 0xC0 && k + 1 < u.size()) {
                    b->s.push_back(char(((c & 0x1F) << 6) | (static_cast<unsigned char>(u[k + 1]) & 0x3F)));
                    ++k;
                } else
                    return fail("unsupported _codecs.encode payload");
            }
            return push(std::move(b));
        }
        if (g == "torch._utils._rebuild_tensor_v2") {
            // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
            if (a.size() < 4 || !a[0] || a[0]->kind != PickleValue::Kind::Storage)
                return fail("malformed tensor in the pickle");
            PV t = make(PickleValue::Kind::Tensor);
            t->tensor.storage = a[0]->storage;
            t->tensor.dtype = a[0]->storage.dtype;
            if (!asInt(a[1], &t->tensor.storageOffset) || !intTuple(a[2], &t->tensor.shape) ||
                !intTuple(a[3], &t->tensor.stride) || t->tensor.shape.size() != t->tensor.stride.size())
                return fail("malformed tensor shape in the pickle");
            for (std::size_t k = 0; k < t->tensor.shape.size(); ++k)
                if (t->tensor.shape[k] < 0 || t->tensor.stride[k] < 0)
                    return fail("malformed tensor shape in the pickle");
            return push(std::move(t));
        }
        if (g == "torch._utils._rebuild_parameter" || g == "torch._utils._rebuild_parameter_with_state") {
            if (a.empty() || !a[0] || a[0]->kind != PickleValue::Kind::Tensor)
                return fail("malformed parameter in the pickle");
            return push(a[0]);
        }
        return fail("refused: the pickle calls " + g + ", which Ingot does not run");
    }
    bool persistentLoad(const PV &pid)
    {
        // ('storage', <torch.XStorage>, key, location, numel)
        if (!pid || pid->kind != PickleValue::Kind::Tuple || pid->items.size() < 5 || !pid->items[0]->isStr() ||
            pid->items[0]->s != "storage")
            return fail("malformed persistent id in the pickle");
        const PV &type = pid->items[1];
        if (!type || type->kind != PickleValue::Kind::Global)
            return fail("malformed storage type in the pickle");
        PV s = make(PickleValue::Kind::Storage);
        s->storage.dtype = dtypeFromTorchStorage(type->s);
        if (s->storage.dtype == DType::Unknown)
            s->storage.dtype = dtypeFromTorchDtype(type->s);
        if (s->storage.dtype == DType::Unknown)
            return fail("unsupported storage type " + type->s);
        if (!pid->items[2]->isStr())
            return fail("malformed storage key in the pickle");
        s->storage.key = pid->items[2]->s;
        if (pid->items[3]->isStr())
            s->storage.location = pid->items[3]->s;
        if (!asInt(pid->items[4], &s->storage.numel) || s->storage.numel < 0)
            return fail("malformed storage size in the pickle");
        return push(std::move(s));
    }
    bool setItems(PV dict, std::vector<PV> &kv)
    {
        if (!dict || dict->kind != PickleValue::Kind::Dict || kv.size() % 2)
            return fail("malformed pickle: SETITEMS on something that is not a dict");
        for (std::size_t k = 0; k + 1 < kv.size(); k += 2)
            dict->dict.emplace_back(std::move(kv[k]), std::move(kv[k + 1]));
        return true;
    }

    bool run(PV *result)
    {
        while (pos < in.size()) {
            const unsigned char op = static_cast<unsigned char>(in[pos++]);
            switch (op) {
            case 0x80: // PROTO
                if (!need(1))
                    return false;
                if (static_cast<unsigned char>(in[pos]) > 5)
                    return fail("unsupported pickle protocol");
                ++pos;
                break;
            case 0x95: // FRAME
                if (!need(8))
                    return false;
                pos += 8;
                break;
            case '.': { // STOP
                PV v;
                if (!pop(&v))
                    return false;
                *result = std::move(v);
                return true;
            }
            case '(': marks.push_back(stack.size()); break;
            case 'N': if (!push(make(PickleValue::Kind::None))) return false; break;
            case 0x88: case 0x89: { PV v = make(PickleValue::Kind::Bool); v->b = op == 0x88; if (!push(v)) return false; break; }
            case 'K': { if (!need(1)) return false; PV v = make(PickleValue::Kind::Int); v->i = std::int64_t(le(1)); if (!push(v)) return false; break; }
            case 'M': { if (!need(2)) return false; PV v = make(PickleValue::Kind::Int); v->i = std::int64_t(le(2)); if (!push(v)) return false; break; }
            case 'J': { if (!need(4)) return false; PV v = make(PickleValue::Kind::Int); v->i = std::int32_t(le(4)); if (!push(v)) return false; break; }
            case 0x8a: { // LONG1
                if (!need(1))
                    return false;
                const int n = int(le(1));
                if (n > 8)
                    return fail("an integer in the pickle is too large");
                if (!need(std::size_t(n)))
                    return false;
                std::uint64_t u = le(n);
                std::int64_t v = std::int64_t(u);
                if (n > 0 && n < 8 && (u >> (8 * n - 1)) & 1)
                    v = std::int64_t(u | (~std::uint64_t(0) << (8 * n)));
                PV x = make(PickleValue::Kind::Int);
                x->i = v;
                if (!push(x))
                    return false;
                break;
            }
            case 'G': { // BINFLOAT, big-endian
                if (!need(8))
                    return false;
                std::uint64_t u = 0;
                for (int k = 0; k < 8; ++k)
                    u = (u << 8) | static_cast<unsigned char>(in[pos + std::size_t(k)]);
                pos += 8;
                PV x = make(PickleValue::Kind::Float);
                std::memcpy(&x->f, &u, 8);
                if (!push(x))
                    return false;
                break;
            }
            case 'X': if (!need(4)) return false; if (!text(std::size_t(le(4)), PickleValue::Kind::Str)) return false; break;
            case 0x8c: if (!need(1)) return false; if (!text(std::size_t(le(1)), PickleValue::Kind::Str)) return false; break;
            case 0x8d: if (!need(8)) return false; if (!text(std::size_t(le(8)), PickleValue::Kind::Str)) return false; break;
            case 'U': if (!need(1)) return false; if (!text(std::size_t(le(1)), PickleValue::Kind::Str)) return false; break;
            case 'T': if (!need(4)) return false; if (!text(std::size_t(le(4)), PickleValue::Kind::Str)) return false; break;
            case 'B': if (!need(4)) return false; if (!text(std::size_t(le(4)), PickleValue::Kind::Bytes)) return false; break;
            case 'C': if (!need(1)) return false; if (!text(std::size_t(le(1)), PickleValue::Kind::Bytes)) return false; break;
            case 0x8e: if (!need(8)) return false; if (!text(std::size_t(le(8)), PickleValue::Kind::Bytes)) return false; break;
            case '}': if (!push(make(PickleValue::Kind::Dict))) return false; break;
            case ']': if (!push(make(PickleValue::Kind::List))) return false; break;
            case ')': if (!push(make(PickleValue::Kind::Tuple))) return false; break;
            case 'd': case 'l': case 't': {
                std::vector<PV> items;
                if (!popMark(&items))
                    return false;
                if (op == 'd') {
                    PV d = make(PickleValue::Kind::Dict);
                    if (!setItems(d, items) || !push(d))
                        return false;
                } else {
                    PV l = make(op == 'l' ? PickleValue::Kind::List : PickleValue::Kind::Tuple);
                    l->items = std::move(items);
                    if (!push(l))
                        return false;
                }
                break;
            }
            case 0x85: case 0x86: case 0x87: {
                const int n = op - 0x84;
                if (stack.size() < std::size_t(n) || (!marks.empty() && stack.size() - std::size_t(n) < marks.back()))
                    return fail("malformed pickle: stack underflow");
                PV t = make(PickleValue::Kind::Tuple);
                t->items.assign(stack.end() - n, stack.end());
                stack.resize(stack.size() - std::size_t(n));
                if (!push(t))
                    return false;
                break;
            }
            case 'a': {
                PV v;
                if (!pop(&v) || stack.empty())
                    return fail("malformed pickle: APPEND");
                if (stack.back()->kind != PickleValue::Kind::List)
                    return fail("malformed pickle: APPEND to a non-list");
                stack.back()->items.push_back(std::move(v));
                break;
            }
            case 'e': {
                std::vector<PV> items;
                if (!popMark(&items) || stack.empty() || stack.back()->kind != PickleValue::Kind::List)
                    return fail("malformed pickle: APPENDS");
                for (PV &x : items)
                    stack.back()->items.push_back(std::move(x));
                break;
            }
            case 's': {
                PV v, k;
                if (!pop(&v) || !pop(&k) || stack.empty())
                    return fail("malformed pickle: SETITEM");
                std::vector<PV> kv{k, v};
                if (!setItems(stack.back(), kv))
                    return false;
                break;
            }
            case 'u': {
                std::vector<PV> kv;
                if (!popMark(&kv) || stack.empty())
                    return fail("malformed pickle: SETITEMS");
                if (!setItems(stack.back(), kv))
                    return false;
                break;
            }
            case 'q': if (!need(1)) return false; if (!memoPut(le(1))) return false; break;
            case 'r': if (!need(4)) return false; if (!memoPut(le(4))) return false; break;
            case 0x94: if (!memoPut(memo.size())) return false; break;
            case 'h': if (!need(1)) return false; if (!memoGet(le(1))) return false; break;
            case 'j': if (!need(4)) return false; if (!memoGet(le(4))) return false; break;
            case 'c': { // GLOBAL "module\nname\n"
                const std::size_t a = in.find('\n', pos);
                const std::size_t b = a == std::string_view::npos ? a : in.find('\n', a + 1);
                if (b == std::string_view::npos)
                    return fail("malformed pickle: GLOBAL");
                const std::string module(in.substr(pos, a - pos)), name(in.substr(a + 1, b - a - 1));
                pos = b + 1;
                if (!global(module, name))
                    return false;
                break;
            }
            case 0x93: { // STACK_GLOBAL
                PV name, module;
                if (!pop(&name) || !pop(&module) || !name->isStr() || !module->isStr())
                    return fail("malformed pickle: STACK_GLOBAL");
                if (!global(module->s, name->s))
                    return false;
                break;
            }
            case 'R': if (!reduce()) return false; break;
            case 0x81: { // NEWOBJ: cls.__new__(cls, *args)
                PV args, cls;
                if (!pop(&args) || !pop(&cls))
                    return false;
                if (cls->kind == PickleValue::Kind::Global && cls->s == "collections.OrderedDict") {
                    if (!push(make(PickleValue::Kind::Dict)))
                        return false;
                    break;
                }
                return fail("refused: the pickle creates an object of " + (cls->kind == PickleValue::Kind::Global ? cls->s : std::string("an unknown class")));
            }
            case 'b': { // BUILD: state for the object below; ordered dicts carry _metadata, which we keep aside
                PV state;
                if (!pop(&state) || stack.empty())
                    return fail("malformed pickle: BUILD");
                const PickleValue::Kind k = stack.back()->kind;
                if (k != PickleValue::Kind::Dict && k != PickleValue::Kind::Tensor)
                    return fail("refused: the pickle sets the state of an object Ingot does not know");
                break;
            }
            case 'Q': { // BINPERSID
                PV pid;
                if (!pop(&pid) || !persistentLoad(pid))
                    return false;
                break;
            }
            case '0': { PV v; if (!pop(&v)) return false; break; } // POP
            case '2': { if (stack.empty()) return fail("malformed pickle: DUP"); if (!push(stack.back())) return false; break; }
            case '1': { std::vector<PV> items; if (!popMark(&items)) return false; break; } // POP_MARK
            default:
                return fail("unsupported pickle opcode 0x" + [op] {
                    const char *h = "0123456789abcdef";
                    return std::string{h[op >> 4], h[op & 15]};
                }());
            }
        }
        return fail("the pickle ends without STOP: truncated or corrupt");
    }
};

}  // namespace

PickleResult unpickle(std::string_view data, std::size_t maxItems)
{
    Machine m{std::make_shared<PickleArena>(), data, 0, maxItems, {}, {}, {}, {}};
    PickleResult r;
    if (!m.run(&r.value))
        r.error = m.error;
    r.arena = m.arena;
    return r;
}

}  // namespace ingot
