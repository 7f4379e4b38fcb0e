#include "services/jobs/torchtitanjob.h"

#include "services/jobs/jobrunner.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace ingot {

namespace {

struct TorchTitanText {
    Q_DECLARE_TR_FUNCTIONS(ingot::TorchTitanJob)
};

// "--name VALUE" or "--name=VALUE" for any of `names`; the last one given wins. *found says whether one was.
QString argument(const QStringList &args, const QStringList &names, bool *found)
{
    QString value;
    *found = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        for (const QString &n : names) {
            if (a.startsWith(n + QLatin1Char('='))) {
                value = a.mid(n.size() + 1);
                *found = true;
            } else if (a == n && i + 1 < args.size()) {
                value = args.at(i + 1);
                *found = true;
            }
        }
    }
    return value;
}

// One TOML value as the keys Ingot reads have them: a basic or literal string, or a boolean. Anything else (a number,
// an array, a multi-line string) is nullopt.
struct TomlValue {
    bool isString = false;
    QString string;
    bool isBoolean = false;
    bool boolean = false;
    bool isInteger = false;
    qint64 integer = 0;
};

std::optional<TomlValue> tomlValue(QByteArray v)
{
    v = v.trimmed();
    TomlValue out;
    if (v.startsWith("\"\"\"") || v.startsWith("'''"))
        return std::nullopt;
    if (v.startsWith('\'')) {
        const qsizetype close = v.indexOf('\'', 1);
        if (close < 0)
            return std::nullopt;
        const QByteArray rest = v.mid(close + 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith('#'))
            return std::nullopt;
        out.isString = true;
        out.string = QString::fromUtf8(v.mid(1, close - 1));
        return out;
    }
    if (v.startsWith('"')) {
        QByteArray s;
        qsizetype i = 1;
        for (; i < v.size() && v.at(i) != '"'; ++i) {
            if (v.at(i) == '\\') {
                if (++i >= v.size())
                    return std::nullopt;
                const char e = v.at(i);
                if (e == '"' || e == '\\')
                    s += e;
                else if (e == 't')
                    s += '\t';
                else
                    return std::nullopt;  // \n, \u… in a folder name: not read rather than read wrong
            } else {
                s += v.at(i);
            }
        }
        if (i >= v.size())
            return std::nullopt;
        const QByteArray rest = v.mid(i + 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith('#'))
            return std::nullopt;
        out.isString = true;
        out.string = QString::fromUtf8(s);
        return out;
    }
    const qsizetype hash = v.indexOf('#');
    const QByteArray word = (hash >= 0 ? v.left(hash) : v).trimmed();
    if (word == "true" || word == "false") {
        out.isBoolean = true;
        out.boolean = word == "true";
        return out;
    }
    // A decimal integer, with TOML's underscores between digits.
    QByteArray digits = word;
    if (digits.startsWith('+'))
        digits.remove(0, 1);
    if (digits.isEmpty() || digits.size() > 20 || digits.startsWith('_') || digits.endsWith('_') || digits.contains("__"))
        return std::nullopt;
    digits.replace('_', QByteArray());
    bool ok = false;
    const qint64 n = digits.toLongLong(&ok);
    if (!ok || digits.startsWith('-') || n > 1000000000000LL)
        return std::nullopt;
    out.isInteger = true;
    out.integer = n;
    return out;
}

// Whether a line opens a multi-line string that does not close on it (its lines are skipped).
bool opensMultiline(const QByteArray &line, QByteArray *delimiter)
{
    for (const char *d : {"\"\"\"", "'''"}) {
        const qsizetype at = line.indexOf(d);
        if (at >= 0 && line.indexOf(d, at + 3) < 0) {
            *delimiter = d;
            return true;
        }
    }
    return false;
}

bool truthy(const QString &v)
{
    const QString l = v.toLower();
    return l == QLatin1String("true") || l == QLatin1String("1") || l == QLatin1String("yes");
}

}  // namespace

std::optional<TorchTitanJob> torchTitanJob(const JobSpec &spec)
{
    const bool module = spec.program == JobProgram::Module && spec.module.trimmed() == QLatin1String("torchtitan.train");
    const bool script = spec.program == JobProgram::Script
                        && QDir::cleanPath(spec.script).endsWith(QLatin1String("/torchtitan/train.py"));
    if (!module && !script)
        return std::nullopt;
    TorchTitanJob job;
    bool found = false;
    job.configFile = argument(spec.extraArgs, {QStringLiteral("--job.config_file"), QStringLiteral("--job.config-file")},
                              &found);
    return job;
}

bool readTorchTitanConfig(const QByteArray &toml, TorchTitanJob *out, QString *error)
{
    TorchTitanJob read = *out;  // given to *out only whole
    TorchTitanJob *const job = &read;
    if (toml.size() > torchTitanMaxConfigBytes) {
        *error = TorchTitanText::tr("The TorchTitan config is over %1 bytes: not read.").arg(torchTitanMaxConfigBytes);
        return false;
    }
    QByteArray table;
    QByteArray multiline;  // the delimiter of a multi-line string being skipped
    QStringList seen;
    int lineNo = 0;
    for (const QByteArray &raw : toml.split('\n')) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (!multiline.isEmpty()) {
            if (line.contains(multiline))
                multiline.clear();
            continue;
        }
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        if (line.startsWith('[')) {
            const qsizetype close = line.indexOf(']');
            table = close > 0 ? line.mid(1, close - 1).trimmed() : QByteArray();
            if (table.startsWith('['))  // [[array of tables]]
                table = "[" + table;
            continue;
        }
        const qsizetype eq = line.indexOf('=');
        if (eq <= 0) {
            continue;  // the rest of an array or an inline table over several lines
        }
        const QByteArray key = line.left(eq).trimmed();
        const QByteArray valueText = line.mid(eq + 1);
        const bool wanted = (table == "job" && key == "dump_folder") || (table == "training" && key == "steps")
                            || (table == "checkpoint" && (key == "folder" || key == "enable" || key == "enable_checkpoint"));
        if (!wanted) {
            QByteArray delimiter;
            if (opensMultiline(valueText, &delimiter))
                multiline = delimiter;
            continue;
        }
        const QString name = QString::fromUtf8(table + '.' + key);
        if (seen.contains(name)) {
            *error = TorchTitanText::tr("The TorchTitan config sets %1 twice (line %2).").arg(name).arg(lineNo);
            return false;
        }
        seen << name;
        const std::optional<TomlValue> v = tomlValue(valueText);
        if (key == "steps") {
            if (!v || !v->isInteger) {
                *error = TorchTitanText::tr("The TorchTitan config's %1 (line %2) is not a whole number of steps.")
                             .arg(name)
                             .arg(lineNo);
                return false;
            }
            job->steps = v->integer;
            continue;
        }
        const bool wantString = key == "dump_folder" || key == "folder";
        if (!v || (wantString ? !v->isString || v->string.isEmpty() : !v->isBoolean)) {
            *error = (wantString ? TorchTitanText::tr("The TorchTitan config's %1 (line %2) is not a folder name in "
                                                      "quotes.")
                                 : TorchTitanText::tr("The TorchTitan config's %1 (line %2) is not true or false."))
                         .arg(name)
                         .arg(lineNo);
            return false;
        }
        if (key == "dump_folder")
            job->dumpFolder = v->string;
        else if (key == "folder")
            job->checkpointFolder = v->string;
        else
            job->checkpointing = v->boolean;
    }
    *out = read;
    return true;
}

void applyTorchTitanArguments(const QStringList &args, TorchTitanJob *job)
{
    bool found = false;
    const QString dump = argument(args, {QStringLiteral("--job.dump_folder"), QStringLiteral("--job.dump-folder")}, &found);
    if (found && !dump.isEmpty())
        job->dumpFolder = dump;
    const QString folder = argument(args, {QStringLiteral("--checkpoint.folder")}, &found);
    if (found && !folder.isEmpty())
        job->checkpointFolder = folder;
    bool ok = false;
    const qint64 steps = argument(args, {QStringLiteral("--training.steps")}, &found).toLongLong(&ok);
    if (found && ok && steps >= 0 && steps <= 1000000000000LL)
        job->steps = steps;
    for (const QString &a : args) {
        for (const QLatin1String flag : {QLatin1String("--checkpoint.enable"), QLatin1String("--checkpoint.enable_checkpoint"),
                                         QLatin1String("--checkpoint.enable-checkpoint")}) {
            if (a == flag)
                job->checkpointing = true;
            else if (a.startsWith(flag + QLatin1Char('=')))
                job->checkpointing = truthy(a.mid(flag.size() + 1));
        }
        if (a == QLatin1String("--checkpoint.no-enable") || a == QLatin1String("--checkpoint.no_enable"))
            job->checkpointing = false;
    }
}

QString torchTitanCheckpointDir(const TorchTitanJob &job, const QString &cwd)
{
    QString dir = QDir::isAbsolutePath(job.dumpFolder) ? job.dumpFolder : cwd + QLatin1Char('/') + job.dumpFolder;
    if (QDir::isAbsolutePath(job.checkpointFolder))
        dir = job.checkpointFolder;
    else
        dir += QLatin1Char('/') + job.checkpointFolder;
    return QDir::cleanPath(dir);
}

QString newestTorchTitanStep(const QStringList &relativeFiles)
{
    static const QRegularExpression name(QStringLiteral("^step-(\\d{1,15})/\\.metadata$"));
    QString best;
    qint64 bestStep = -1;
    for (const QString &rel : relativeFiles) {
        const QRegularExpressionMatch m = name.match(rel);
        if (m.hasMatch() && m.captured(1).toLongLong() > bestStep) {
            bestStep = m.captured(1).toLongLong();
            best = rel.section(QLatin1Char('/'), 0, 0);
        }
    }
    return best;
}

bool readTorchTitanJob(JobRunner &runner, const JobRecordFile &record, TorchTitanJob *job, QString *error)
{
    QString why;
    if (!job->configFile.isEmpty()) {
        const QString path = QDir::isAbsolutePath(job->configFile) ? job->configFile
                                                                    : record.cwd + QLatin1Char('/') + job->configFile;
        const FileChunk c = runner.readFile(path, 0, torchTitanMaxConfigBytes + 1);
        if (!c.exists || !c.error.isEmpty())
            why = TorchTitanText::tr("Cannot read the TorchTitan config %1: %2")
                      .arg(displayName(path), c.exists ? c.error : TorchTitanText::tr("it is not there"));
        else
            readTorchTitanConfig(c.data, job, &why);
    }
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    applyTorchTitanArguments(record.spec.extraArgs, job);
    return true;
}

QString latestTorchTitanCheckpoint(JobRunner &runner, const JobRecordFile &record, const TorchTitanJob &jobIn,
                                   bool *dirExists, QString *error)
{
    TorchTitanJob job = jobIn;
    if (dirExists)
        *dirExists = false;
    if (!readTorchTitanJob(runner, record, &job, error))
        return {};
    const QString dir = torchTitanCheckpointDir(job, record.cwd);
    const QStringList files = runner.listFiles(dir, 1);
    if (dirExists)
        *dirExists = !files.isEmpty() || runner.pathInfo(dir).exists;
    const QString step = newestTorchTitanStep(files);
    return step.isEmpty() ? QString() : dir + QLatin1Char('/') + step;
}

QString consolidationSource(const JobRecordFile &record, const QString &latestCheckpoint)
{
    if (torchTitanJob(record.spec) && !latestCheckpoint.isEmpty())
        return latestCheckpoint;
    return record.outputDir;
}

}  // namespace ingot
