#include "services/cache/cachefilter.h"

#include "services/cache/compilerversion.h"
#include "services/cache/maintenance.h"
#include "services/util/names.h"
#include "services/util/units.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace ingot {

namespace {

struct CacheFilterText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheFilter)
};

using Field = CacheFilterTerm::Field;
using Op = CacheFilterTerm::Op;

struct FieldName {
    const char *name;
    Field field;
};
constexpr FieldName kFields[] = {{"size", Field::Size}, {"used", Field::Used}, {"state", Field::State},
                                 {"compiler", Field::Compiler}, {"name", Field::Name}};

// The operator at the start of `rest` (two-character ones first); its length in *len, 0 when there is none.
bool readOp(QStringView rest, Op *op, int *len)
{
    static const struct {
        const char *text;
        Op op;
    } ops[] = {{"!=", Op::Ne}, {">=", Op::Ge}, {"<=", Op::Le}, {"==", Op::Eq}, {"=", Op::Eq}, {">", Op::Gt}, {"<", Op::Lt}};
    for (const auto &o : ops) {
        const QLatin1String t(o.text);
        if (rest.startsWith(t)) {
            *op = o.op;
            *len = int(t.size());
            return true;
        }
    }
    return false;
}

bool compare(qint64 a, Op op, qint64 b)
{
    switch (op) {
    case Op::Eq: return a == b;
    case Op::Ne: return a != b;
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    }
    return false;
}

QString compilerNumber(const QString &folder)
{
    return folder.startsWith(QLatin1String("neuronxcc-")) ? folder.mid(10) : folder;
}

bool parseTerm(const QString &expr, CacheFilterTerm *t, QString *error)
{
    const QString e = expr.trimmed();
    const FieldName *found = nullptr;
    for (const FieldName &f : kFields)
        if (e.startsWith(QLatin1String(f.name), Qt::CaseInsensitive))
            found = &f;
    int opLen = 0;
    if (!found || !readOp(QStringView(e).mid(int(qstrlen(found->name))), &t->op, &opLen)) {
        *error = CacheFilterText::tr("\"%1\" is not a filter: write FIELD OP VALUE with a field of size, used, state, "
                                     "compiler or name and an operator of = != > >= < <= (e.g. size>1GB, used>30d, "
                                     "state=failed)")
                     .arg(displayName(e));
        return false;
    }
    t->field = found->field;
    t->source = e;
    const QString value = e.mid(int(qstrlen(found->name)) + opLen).trimmed();
    if (value.isEmpty()) {
        *error = CacheFilterText::tr("\"%1\" has no value after its operator").arg(displayName(e));
        return false;
    }
    const bool ordered = t->op != Op::Eq && t->op != Op::Ne;
    switch (t->field) {
    case Field::Size:
        t->number = parseBytes(value);
        if (t->number < 0) {
            *error = CacheFilterText::tr("\"%1\": a size such as 500MB, 1.5GB or 20GiB, not \"%2\"").arg(displayName(e), displayName(value));
            return false;
        }
        return true;
    case Field::Used:
        t->number = parseFilterDuration(value);
        if (t->number < 0) {
            *error = CacheFilterText::tr("\"%1\": an age such as 90m, 12h, 30d or 2w, not \"%2\"").arg(displayName(e), displayName(value));
            return false;
        }
        return true;
    case Field::State:
        if (!parseStateName(value, &t->state)) {
            *error = CacheFilterText::tr("\"%1\": a state of SUCCESS, FAILED, LOCKED, INCOMPLETE, EMPTY or UNKNOWN, not \"%2\"")
                         .arg(displayName(e), displayName(value));
            return false;
        }
        break;
    case Field::Compiler:
        t->text = compilerNumber(value);
        break;
    case Field::Name:
        t->text = value;
        break;
    }
    if (ordered) {
        *error = CacheFilterText::tr("\"%1\": %2 takes = or != only").arg(displayName(e), QLatin1String(found->name));
        return false;
    }
    return true;
}

bool termMatches(const CacheFilterTerm &t, const CacheModule &m, qint64 nowMs)
{
    switch (t.field) {
    case Field::Size: return compare(m.size, t.op, t.number);
    case Field::Used: {
        // An entry never used (no time known) counts as used at the epoch: as old as can be.
        const qint64 age = nowMs - std::max<qint64>(0, m.lastUsedMs);
        return compare(age, t.op, t.number);
    }
    case Field::State: return (m.state == t.state) == (t.op == Op::Eq);
    case Field::Compiler: {
        const QString v = compilerNumber(m.version);
        // By version prefix, at a component boundary: 2.15 is 2.15.x, never 2.150.
        const bool same = v == t.text || (v.startsWith(t.text) && v.size() > t.text.size()
                                           && (v.at(t.text.size()) == QLatin1Char('.') || v.at(t.text.size()) == QLatin1Char('+')));
        return same == (t.op == Op::Eq);
    }
    case Field::Name: {
        const QRegularExpression re(QRegularExpression::anchoredPattern(QRegularExpression::wildcardToRegularExpression(
            t.text, QRegularExpression::UnanchoredWildcardConversion)));
        return re.match(m.name).hasMatch() == (t.op == Op::Eq);
    }
    }
    return false;
}

}  // namespace

qint64 parseFilterDuration(const QString &text)
{
    // Maintenance's ages (s, m, h, d: parseLockAge), and weeks, and zero.
    QString t = text.trimmed();
    int times = 1;
    if (t.endsWith(QLatin1Char('w'))) {
        t.back() = QLatin1Char('d');
        times = 7;
    }
    static const QRegularExpression zero(QStringLiteral("^0+[smhd]$"));
    if (zero.match(t).hasMatch())
        return 0;
    const qint64 ms = parseLockAge(t);
    return ms < 0 ? -1 : ms * times;
}

bool CacheFilter::parse(const QStringList &expressions, CacheFilter *out, QString *error)
{
    CacheFilter f;
    for (const QString &e : expressions) {
        if (e.trimmed().isEmpty())
            continue;
        CacheFilterTerm t;
        if (!parseTerm(e, &t, error))
            return false;
        f.m_terms.append(t);
    }
    *out = f;
    return true;
}

bool CacheFilter::looksLikeExpressions(const QString &text)
{
    const QString first = splitExpressions(text).value(0);
    for (const FieldName &f : kFields) {
        const QLatin1String name(f.name);
        Op op;
        int len = 0;
        if (first.startsWith(name, Qt::CaseInsensitive) && readOp(QStringView(first).mid(int(name.size())), &op, &len))
            return true;
    }
    return false;
}

QStringList CacheFilter::splitExpressions(const QString &text)
{
    return text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
}

bool CacheFilter::matches(const CacheModule &m, qint64 nowMs) const
{
    if (!m.isModule())
        return false;
    return std::all_of(m_terms.cbegin(), m_terms.cend(), [&](const CacheFilterTerm &t) { return termMatches(t, m, nowMs); });
}

QStringList CacheFilter::expressions() const
{
    QStringList out;
    for (const CacheFilterTerm &t : m_terms)
        out << t.source;
    return out;
}

bool CacheSort::parse(const QString &text, CacheSort *out, QString *error)
{
    const QString t = text.trimmed().toLower();
    const int colon = t.indexOf(QLatin1Char(':'));
    const QString key = colon < 0 ? t : t.left(colon);
    const QString dir = colon < 0 ? QString() : t.mid(colon + 1);
    CacheSort s;
    if (key == QLatin1String("name"))
        s.key = Key::Name;
    else if (key == QLatin1String("size"))
        s.key = Key::Size, s.descending = true;
    else if (key == QLatin1String("used"))
        s.key = Key::Used;  // oldest use first
    else if (key == QLatin1String("state"))
        s.key = Key::State;
    else if (key == QLatin1String("compiler"))
        s.key = Key::Compiler;
    else {
        *error = CacheFilterText::tr("--sort takes name, size, used, state or compiler (with :asc or :desc), not \"%1\"").arg(displayName(text));
        return false;
    }
    if (dir == QLatin1String("asc"))
        s.descending = false;
    else if (dir == QLatin1String("desc"))
        s.descending = true;
    else if (!dir.isEmpty()) {
        *error = CacheFilterText::tr("--sort: the direction is asc or desc, not \"%1\"").arg(displayName(dir));
        return false;
    }
    *out = s;
    return true;
}

void CacheSort::apply(QVector<const CacheModule *> &rows) const
{
    auto tie = [](const CacheModule *a, const CacheModule *b) {
        if (a->version != b->version)
            return compareCompilerFolders(a->version, b->version) > 0;
        return a->name < b->name;
    };
    auto less = [this](const CacheModule *a, const CacheModule *b) -> int {  // -1, 0, 1 in ascending order
        switch (key) {
        case Key::Name: return a->name < b->name ? -1 : a->name == b->name ? 0 : 1;
        case Key::Size: return a->size < b->size ? -1 : a->size == b->size ? 0 : 1;
        case Key::Used: return a->lastUsedMs < b->lastUsedMs ? -1 : a->lastUsedMs == b->lastUsedMs ? 0 : 1;
        case Key::State: {
            const QString x = stateName(a->state), y = stateName(b->state);
            return x < y ? -1 : x == y ? 0 : 1;
        }
        case Key::Compiler: {
            const int c = compareCompilerFolders(a->version, b->version);
            return c < 0 ? -1 : c > 0 ? 1 : 0;
        }
        }
        return 0;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const CacheModule *a, const CacheModule *b) {
        const int c = less(a, b);
        if (c != 0)
            return descending ? c > 0 : c < 0;
        return tie(a, b);
    });
}

}  // namespace ingot
