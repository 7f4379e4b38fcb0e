// Filter and sort expressions for a cache's entries, the one rule `cache list`, `cache rm` and the cache page's filter
// box share (issue 39; after `hf cache ls --filter`): each expression is FIELD OP VALUE and all of them must hold.
//   size>1GB  size<=500MiB        the entry's bytes in the cache (parseBytes: K/M/G/T powers of 1000, Ki/Mi/... 1024)
//   used>30d  used<2h             how long ago it was last used (s, m, h, d, w); used>30d: unused for over 30 days
//   state=failed  state!=success  its state (SUCCESS, FAILED, LOCKED, INCOMPLETE, EMPTY, UNKNOWN; any case)
//   compiler=2.15  compiler!=2.16 its compiler-version folder, by version prefix (neuronxcc- may be left out)
//   name=MODULE_12*               the module folder's name, a wildcard pattern (* and ?), case-sensitive
// Operators: = != > >= < <= (size and used take all six; state, compiler and name = and !=).
#pragma once

#include "services/cache/cachetypes.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

struct CacheFilterTerm {
    enum class Field { Size, Used, State, Compiler, Name };
    enum class Op { Eq, Ne, Lt, Le, Gt, Ge };
    Field field = Field::Size;
    Op op = Op::Eq;
    qint64 number = 0;  // bytes (size) or milliseconds (used)
    ModuleState state = ModuleState::Unknown;
    QString text;       // compiler prefix or name pattern
    QString source;     // the expression as typed
};

class CacheFilter
{
public:
    // All of `expressions` (an empty list: everything matches); false with why, naming the expression, otherwise.
    static bool parse(const QStringList &expressions, CacheFilter *out, QString *error);
    // Whether `text` is meant as filter expressions (its first word starts with a field name and an operator), not
    // as words to look for: the cache page's filter box takes either.
    static bool looksLikeExpressions(const QString &text);
    // `text` split at blanks, as the filter box passes it to parse().
    static QStringList splitExpressions(const QString &text);

    bool isEmpty() const { return m_terms.isEmpty(); }
    // Whether a module entry matches at `nowMs` (entries that are not modules never do).
    bool matches(const CacheModule &m, qint64 nowMs) const;
    const QVector<CacheFilterTerm> &terms() const { return m_terms; }
    // The expressions as parsed, for a plan's record and JSON.
    QStringList expressions() const;

private:
    QVector<CacheFilterTerm> m_terms;
};

// --sort KEY[:asc|:desc]: name, size, used, state or compiler. Default directions: size largest first, used oldest
// first (what goes first when space is needed), the others ascending.
struct CacheSort {
    enum class Key { Name, Size, Used, State, Compiler };
    Key key = Key::Name;
    bool descending = false;
    static bool parse(const QString &text, CacheSort *out, QString *error);
    // Orders `rows` in place; ties by compiler (newest first), then name.
    void apply(QVector<const CacheModule *> &rows) const;
};

// A duration as written in an expression or option: a whole number and s, m, h, d or w; -1 when it is not one.
qint64 parseFilterDuration(const QString &text);

}  // namespace ingot
