#include "services/slurm/slurmparse.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QRegularExpression>

namespace ingot {

namespace {

constexpr int maxKeysPerRecord = 256;

QByteArray bounded(const QByteArray &value)
{
    return value.size() > maxSlurmField ? value.left(maxSlurmField) : value;
}

// (null), none, N/A and friends: no value.
QByteArray orEmpty(const QByteArray &value)
{
    if (value == "(null)" || value == "none" || value == "None" || value == "N/A" || value == "n/a")
        return {};
    return value;
}

int toInt(const QByteArray &value)
{
    bool ok = false;
    const qint64 v = value.trimmed().toLongLong(&ok);
    return ok && v >= 0 && v <= 1000000000 ? int(v) : 0;
}

qint64 toInt64(const QByteArray &value)
{
    bool ok = false;
    const qint64 v = value.trimmed().toLongLong(&ok);
    return ok && v >= 0 ? v : 0;
}

// A word of `scontrol -o` that starts a new key: Name=..., with a name of letters, digits and _:/().
int keyLength(const QByteArray &word)
{
    const int eq = word.indexOf('=');
    if (eq <= 0 || eq > 64)
        return -1;
    const auto c0 = static_cast<unsigned char>(word.at(0));
    if (!((c0 >= 'A' && c0 <= 'Z') || (c0 >= 'a' && c0 <= 'z')))
        return -1;
    for (int i = 1; i < eq; ++i) {
        const auto c = static_cast<unsigned char>(word.at(i));
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'
                        || c == ':' || c == '/' || c == '(' || c == ')';
        if (!ok)
            return -1;
    }
    return eq;
}

// Lines of at most maxSlurmRecords, each with its fields split at the separator.
template<typename F>
void forEachLine(const QByteArray &text, F &&f)
{
    int count = 0;
    qsizetype start = 0;
    while (start < text.size() && count < maxSlurmRecords) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        QByteArray line = text.mid(start, end - start);
        if (line.endsWith('\r'))
            line.chop(1);
        start = end + 1;
        if (line.trimmed().isEmpty())
            continue;
        ++count;
        f(line);
    }
}

// squeue prints the output file as submitted (slurm-%j.out): the job's own replacements filled in (%j, %A: the id;
// %x: the name; %%), the rest left as written.
QByteArray expandOutputPattern(const QByteArray &pattern, const QByteArray &id, const QByteArray &name)
{
    if (!pattern.contains('%'))
        return pattern;
    QByteArray out;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const char c = pattern.at(i);
        const char next = i + 1 < pattern.size() ? pattern.at(i + 1) : '\0';
        if (c != '%' || !QByteArrayLiteral("jAx%").contains(next)) {
            out += c;
            continue;
        }
        out += next == 'x' ? name : next == '%' ? QByteArray("%") : id;
        ++i;
    }
    return bounded(out);
}

}  // namespace

QString slurmShown(const QByteArray &bytes)
{
    return displayName(nameFromBytes(bytes));
}

QString slurmJobStateText(const QByteArray &state)
{
    // Slurm's job states (squeue/sacct's long names), for people in their language; the raw word stays in files,
    // --json and the filters. A state Slurm adds later is shown as it comes.
    static const char *const known[] = {
        QT_TRANSLATE_NOOP("ingot::SlurmState", "PENDING"),     QT_TRANSLATE_NOOP("ingot::SlurmState", "RUNNING"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "COMPLETING"),  QT_TRANSLATE_NOOP("ingot::SlurmState", "COMPLETED"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "FAILED"),      QT_TRANSLATE_NOOP("ingot::SlurmState", "CANCELLED"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "TIMEOUT"),     QT_TRANSLATE_NOOP("ingot::SlurmState", "NODE_FAIL"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "OUT_OF_MEMORY"), QT_TRANSLATE_NOOP("ingot::SlurmState", "PREEMPTED"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "SUSPENDED"),   QT_TRANSLATE_NOOP("ingot::SlurmState", "CONFIGURING"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "BOOT_FAIL"),   QT_TRANSLATE_NOOP("ingot::SlurmState", "DEADLINE"),
        QT_TRANSLATE_NOOP("ingot::SlurmState", "REQUEUED"),    QT_TRANSLATE_NOOP("ingot::SlurmState", "RESIZING"),
    };
    for (const char *k : known)
        if (state == k)
            return QCoreApplication::translate("ingot::SlurmState", k);
    return slurmShown(state);
}

QString slurmNodeStateName(SlurmNodeState state)
{
    switch (state) {
    case SlurmNodeState::Idle: return QStringLiteral("idle");
    case SlurmNodeState::Mixed: return QStringLiteral("mixed");
    case SlurmNodeState::Allocated: return QStringLiteral("allocated");
    case SlurmNodeState::Drained: return QStringLiteral("drained");
    case SlurmNodeState::Draining: return QStringLiteral("draining");
    case SlurmNodeState::Down: return QStringLiteral("down");
    case SlurmNodeState::Other: break;
    }
    return QStringLiteral("other");
}

QVector<SlurmRecord> parseScontrolRecords(const QByteArray &text)
{
    QVector<SlurmRecord> records;
    forEachLine(text, [&](const QByteArray &line) {
        SlurmRecord r;
        int current = -1;
        for (const QByteArray &word : line.split(' ')) {
            if (word.isEmpty())
                continue;
            const int k = keyLength(word);
            if (k > 0 && r.size() < maxKeysPerRecord) {
                r.append({word.left(k), bounded(word.mid(k + 1))});
                current = int(r.size()) - 1;
            } else if (current >= 0 && r[current].second.size() < maxSlurmField) {
                r[current].second = bounded(r[current].second + ' ' + word);
            }
        }
        if (!r.isEmpty())
            records.append(std::move(r));
    });
    return records;
}

namespace {

// The free-text fields of `scontrol show job -o` whose value runs to the key Slurm prints next (src/api/job_info.c,
// slurm_sprint_job_info: "JobId= JobName=" then "UserId=" on the next line, "Command=" then "WorkDir=", then the
// optional comments, then "StdErr= StdIn= StdOut="): Key= words inside them are their text, not fields. A job may rename itself or
// set its comment (scontrol update), so without this a name holding " JobState=COMPLETED" would read as the state.
QVector<QByteArray> spanEnds(const QByteArray &key)
{
    if (key == "JobName")
        return {"UserId"};
    if (key == "Command")
        return {"WorkDir"};
    if (key == "WorkDir")
        return {"AdminComment", "SystemComment", "Comment", "StdErr"};
    if (key == "StdErr")
        return {"StdIn"};
    if (key == "StdIn")
        return {"StdOut"};
    if (key == "StdOut")  // Power= (up to 23.02), else the optional TRES and mail fields
        return {"Power", "Switches", "BurstBuffer", "CpusPerTres", "MemPerTres", "TresBind", "TresFreq", "TresPerJob",
                "TresPerNode", "TresPerSocket", "TresPerTask", "MailUser", "MailType", "NtasksPerTRES"};
    return {};
}

}  // namespace

SlurmRecord parseScontrolJobRecord(const QByteArray &line)
{
    SlurmRecord r;
    const QList<QByteArray> words = line.split(' ');
    int current = -1;
    QVector<QByteArray> until;    // while in a span: the keys that end it
    QVector<QByteArray> spanned;  // span keys met already: a repeated one is no span (bounded work on hostile text)
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QByteArray &word = words.at(i);
        if (word.isEmpty())
            continue;
        const int k = keyLength(word);
        const QByteArray key = k > 0 ? word.left(k) : QByteArray();
        if (k > 0 && (until.isEmpty() || until.contains(key)) && r.size() < maxKeysPerRecord) {
            r.append({key, bounded(word.mid(k + 1))});
            current = int(r.size()) - 1;
            until.clear();
            const QVector<QByteArray> ends = spanEnds(key);
            if (!ends.isEmpty() && !spanned.contains(key)) {
                spanned << key;
                // A span only where one of its ends follows (a partial record runs as any other).
                for (qsizetype j = i + 1; j < words.size() && until.isEmpty(); ++j) {
                    const int kj = keyLength(words.at(j));
                    if (kj > 0 && ends.contains(words.at(j).left(kj)))
                        until = ends;
                }
            }
        } else if (current >= 0 && r[current].second.size() < maxSlurmField) {
            r[current].second = bounded(r[current].second + ' ' + word);
        }
    }
    return r;
}

QByteArray slurmValue(const SlurmRecord &record, const QByteArray &key)
{
    for (const auto &kv : record)
        if (kv.first == key)
            return kv.second;
    return {};
}

QByteArray sinfoNodeFormat()
{
    // name, hostname, address, long state, CPUs, CPUs allocated/idle/other/total, memory MB, GRES, features,
    // reason, partition (the default one marked *).
    const QByteArray s(1, slurmFieldSeparator);
    return "%N" + s + "%n" + s + "%o" + s + "%T" + s + "%c" + s + "%C" + s + "%m" + s + "%G" + s + "%f" + s + "%E"
           + s + "%P";
}

QByteArray squeueFormat()
{
    static const char *fields[] = {"JobID", "Name", "Partition", "State", "Reason", "NumNodes", "NodeList",
                                   "TimeUsed", "TimeLimit", "SubmitTime", "StartTime", "WorkDir", "STDOUT"};
    QByteArray f;
    for (const char *name : fields) {
        if (!f.isEmpty())
            f += ',';
        f += QByteArray(name) + ":0" + slurmFieldSeparator;
    }
    return f;
}

SlurmNodeState slurmNodeState(const QByteArray &sinfoState)
{
    QByteArray s = sinfoState.toLower();
    while (!s.isEmpty() && QByteArrayLiteral("*~#!%$@^-+").contains(s.back()))
        s.chop(1);
    if (s == "idle")
        return SlurmNodeState::Idle;
    if (s == "mixed")
        return SlurmNodeState::Mixed;
    if (s == "allocated" || s == "completing")
        return SlurmNodeState::Allocated;
    if (s == "drained")
        return SlurmNodeState::Drained;
    if (s == "draining")
        return SlurmNodeState::Draining;
    if (s == "down" || s == "fail" || s == "failing" || s == "not_responding" || s == "unknown")
        return SlurmNodeState::Down;
    return SlurmNodeState::Other;
}

QVector<SlurmNode> parseSinfoNodes(const QByteArray &text)
{
    QVector<SlurmNode> nodes;
    QHash<QByteArray, int> byName;  // a node is listed once per partition
    forEachLine(text, [&](const QByteArray &line) {
        const QList<QByteArray> f = line.split(slurmFieldSeparator);
        if (f.size() != 11 || f[0].isEmpty())
            return;
        QByteArray partition = bounded(f[10]);
        if (partition.endsWith('*'))
            partition.chop(1);
        if (const auto it = byName.constFind(bounded(f[0])); it != byName.cend()) {
            SlurmNode &n = nodes[*it];
            if (!partition.isEmpty() && !n.partitions.contains(partition) && n.partitions.size() < 256)
                n.partitions.append(partition);
            return;
        }
        SlurmNode n;
        n.name = bounded(f[0]);
        n.hostname = bounded(f[1]);
        n.addr = bounded(f[2]);
        n.state = bounded(f[3]);
        n.kind = slurmNodeState(n.state);
        n.cpus = toInt(f[4]);
        const QList<QByteArray> cpus = f[5].split('/');  // allocated/idle/other/total
        n.cpusAllocated = cpus.size() == 4 ? toInt(cpus[0]) : 0;
        n.memoryMb = toInt64(f[6]);
        n.gres = bounded(orEmpty(f[7]));
        n.features = bounded(orEmpty(f[8]));
        n.reason = bounded(orEmpty(f[9]));
        if (!partition.isEmpty())
            n.partitions.append(partition);
        byName.insert(n.name, int(nodes.size()));
        nodes.append(std::move(n));
    });
    return nodes;
}

QVector<SlurmPartition> parseScontrolPartitions(const QByteArray &text)
{
    QVector<SlurmPartition> parts;
    for (const SlurmRecord &r : parseScontrolRecords(text)) {
        SlurmPartition p;
        p.name = slurmValue(r, "PartitionName");
        if (p.name.isEmpty())
            continue;
        p.state = slurmValue(r, "State");
        p.isDefault = slurmValue(r, "Default") == "YES";
        p.maxTime = slurmValue(r, "MaxTime");
        p.nodeList = orEmpty(slurmValue(r, "Nodes"));
        p.totalNodes = toInt(slurmValue(r, "TotalNodes"));
        p.totalCpus = toInt(slurmValue(r, "TotalCPUs"));
        parts.append(std::move(p));
    }
    return parts;
}

void countPartitionNodes(QVector<SlurmPartition> *partitions, const QVector<SlurmNode> &nodes)
{
    for (SlurmPartition &p : *partitions) {
        p.idle = p.mixed = p.allocated = p.drained = p.down = p.other = 0;
        for (const SlurmNode &n : nodes) {
            if (!n.partitions.contains(p.name))
                continue;
            switch (n.kind) {
            case SlurmNodeState::Idle: ++p.idle; break;
            case SlurmNodeState::Mixed: ++p.mixed; break;
            case SlurmNodeState::Allocated: ++p.allocated; break;
            case SlurmNodeState::Drained:
            case SlurmNodeState::Draining: ++p.drained; break;
            case SlurmNodeState::Down: ++p.down; break;
            case SlurmNodeState::Other: ++p.other; break;
            }
        }
    }
}

namespace {

// A line of fields separated by 0x1f (squeue -O ends each field with one, so a last empty field is dropped): each
// trimmed and bounded; empty when the line has another count.
QList<QByteArray> separatedFields(const QByteArray &line, int count)
{
    QList<QByteArray> f = line.split(slurmFieldSeparator);
    if (f.size() == count + 1 && f.last().trimmed().isEmpty())
        f.removeLast();
    if (f.size() != count)
        return {};
    for (QByteArray &v : f)
        v = bounded(v.trimmed());
    return f;
}

}  // namespace

QVector<SlurmQueueJob> parseSqueue(const QByteArray &text)
{
    QVector<SlurmQueueJob> jobs;
    forEachLine(text, [&](const QByteArray &line) {
        const QList<QByteArray> f = separatedFields(line, 13);
        if (f.isEmpty() || !isSlurmJobId(f[0]))
            return;
        SlurmQueueJob j;
        j.id = f[0];
        j.name = f[1];
        j.partition = f[2];
        j.state = f[3];
        j.reason = orEmpty(f[4]);
        j.nodes = toInt(f[5]);
        j.nodeList = orEmpty(f[6]);
        j.timeUsed = f[7];
        j.timeLimit = f[8];
        j.submitTime = orEmpty(f[9]);
        j.startTime = orEmpty(f[10]);
        j.workDir = orEmpty(f[11]);
        j.stdOut = expandOutputPattern(orEmpty(f[12]), j.id, j.name);
        jobs.append(std::move(j));
    });
    return jobs;
}

bool parseScontrolJob(const QByteArray &text, SlurmJobDetails *job, bool *ambiguous)
{
    if (ambiguous)
        *ambiguous = false;
    static const QByteArray read[] = {"JobId", "JobName", "UserId", "JobState", "Reason", "NodeList", "BatchHost",
                                      "Partition", "RunTime", "TimeLimit", "ExitCode", "StdOut", "WorkDir",
                                      "SubmitTime", "StartTime", "NumNodes"};
    bool found = false;
    forEachLine(text, [&](const QByteArray &line) {
        if (found)
            return;
        const SlurmRecord r = parseScontrolJobRecord(line);
        const QByteArray id = slurmValue(r, "JobId");
        if (!isSlurmJobId(id))
            return;
        found = true;
        // A field Ingot reads that the record names twice: free text (a name, a comment) reads as Slurm's own
        // fields, and which is Slurm's cannot be told. Nothing is read rather than the wrong one.
        for (const QByteArray &key : read) {
            int n = 0;
            for (const auto &kv : r)
                n += kv.first == key;
            if (n > 1) {
                if (ambiguous)
                    *ambiguous = true;
                found = false;
                return;
            }
        }
        SlurmJobDetails j;
        j.id = id;
        j.name = slurmValue(r, "JobName");
        j.state = slurmValue(r, "JobState");
        j.reason = orEmpty(slurmValue(r, "Reason"));
        j.nodeList = orEmpty(slurmValue(r, "NodeList"));
        j.batchHost = orEmpty(slurmValue(r, "BatchHost"));
        j.partition = slurmValue(r, "Partition");
        j.runTime = slurmValue(r, "RunTime");
        j.timeLimit = slurmValue(r, "TimeLimit");
        j.exitCode = slurmValue(r, "ExitCode");
        j.stdOut = orEmpty(slurmValue(r, "StdOut"));
        j.workDir = orEmpty(slurmValue(r, "WorkDir"));
        j.submitTime = orEmpty(slurmValue(r, "SubmitTime"));
        j.startTime = orEmpty(slurmValue(r, "StartTime"));
        if (j.startTime == "Unknown")
            j.startTime.clear();
        j.numNodes = toInt(slurmValue(r, "NumNodes").split('-').value(0));
        *job = std::move(j);
    });
    return found;
}

QByteArray sacctFormat()
{
    return "JobID,JobName,State,ExitCode,Elapsed,Timelimit,Submit,Start,Partition,NodeList,NNodes,WorkDir";
}

bool parseSacctJob(const QByteArray &text, const QByteArray &id, SlurmJobDetails *job)
{
    bool found = false;
    forEachLine(text, [&](const QByteArray &line) {
        const QList<QByteArray> f = separatedFields(line, 12);
        if (found || f.isEmpty() || f[0] != id || !isSlurmJobId(id))
            return;
        SlurmJobDetails j;
        j.id = f[0];
        j.name = f[1];
        j.state = f[2].split(' ').value(0);  // "CANCELLED by 1000": the state is the first word
        j.exitCode = f[3];
        j.runTime = f[4];
        j.timeLimit = f[5];
        j.submitTime = orEmpty(f[6]);
        j.startTime = orEmpty(f[7]);
        if (j.startTime == "Unknown")
            j.startTime.clear();
        j.partition = f[8];
        j.nodeList = orEmpty(f[9]);
        if (j.nodeList == "None assigned")
            j.nodeList.clear();
        j.numNodes = toInt(f[10]);
        j.workDir = orEmpty(f[11]);
        *job = std::move(j);
        found = true;
    });
    return found;
}

QString parseSinfoVersion(const QByteArray &text)
{
    static const QRegularExpression re(QStringLiteral("^slurm(?:-wlm)? ([0-9]+\\.[0-9]+(?:\\.[0-9]+)?[0-9A-Za-z.-]{0,32})\\s*$"));
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(text.left(200).trimmed()));
    return m.hasMatch() ? m.captured(1) : QString();
}

int pendingPosition(const QByteArray &squeueText, const QByteArray &id, const QByteArray &partition)
{
    int position = 0;
    int found = 0;
    forEachLine(squeueText, [&](const QByteArray &line) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (found || f.size() != 2 || !f[1].split(',').contains(partition))
            return;
        ++position;
        if (f[0] == id)
            found = position;
    });
    return found;
}

qint64 slurmDurationSeconds(const QByteArray &text)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(
        QStringLiteral("(?:([0-9]{1,5})-)?(?:([0-9]{1,2}):)?([0-9]{1,2}):([0-9]{2})")));
    const QRegularExpressionMatch m = re.match(QString::fromLatin1(text.trimmed().left(32)));
    if (!m.hasMatch() || (!m.captured(1).isEmpty() && m.captured(2).isEmpty()))
        return -1;  // days without hours is no form Slurm prints
    return ((m.captured(1).toLongLong() * 24 + m.captured(2).toLongLong()) * 60 + m.captured(3).toLongLong()) * 60
        + m.captured(4).toLongLong();
}

qint64 slurmSecondsBetween(const QByteArray &from, const QByteArray &to)
{
    const auto time = [](const QByteArray &t) {
        // Slurm prints local time without a zone; both ends read the same way, so the difference holds.
        QDateTime d = QDateTime::fromString(QString::fromLatin1(t.trimmed().left(32)), Qt::ISODate);
        d.setTimeSpec(Qt::UTC);
        return d;
    };
    const QDateTime a = time(from), b = time(to);
    if (!a.isValid() || !b.isValid() || b < a)
        return -1;
    return a.secsTo(b);
}

bool isSlurmJobId(const QByteArray &id)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[0-9]{1,18}(?:[_+][0-9]{1,9})?")));
    return id.size() <= 40 && re.match(QString::fromLatin1(id)).hasMatch();
}

}  // namespace ingot
