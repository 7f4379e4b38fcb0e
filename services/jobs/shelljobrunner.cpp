#include "services/jobs/shelljobrunner.h"
#include "services/jobs/shelljobscripts.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDeadlineTimer>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace ingot {

using namespace jobscripts;

namespace {

struct ShellJobRunnerText {
    Q_DECLARE_TR_FUNCTIONS(ingot::ShellJobRunner)
};

constexpr int smallTimeoutMs = 60 * 1000;
constexpr int kIngotCliAskMs = 1000;  // how often a CLI run there is asked whether it ended
constexpr int kStopCheckMs = 50;      // how soon a stop is seen meanwhile
constexpr int uploadTimeoutMs = 10 * 60 * 1000;



QByteArray script(const char *body, const char *extra = nullptr)
{
    QByteArray s(kPrelude);
    if (extra)
        s += extra;
    return s + body;
}

// The folder and the name of a clean absolute path ("/a/b" -> "/a", "b").
bool splitPath(const QString &path, QString *parent, QString *name)
{
    const int slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return false;
    *parent = slash == 0 ? QStringLiteral("/") : path.left(slash);
    *name = path.mid(slash + 1);
    return !name->isEmpty() && *name != QLatin1String(".") && *name != QLatin1String("..");
}

// What the host said, for a message: its stderr's first lines, escaped.
QString said(const ShellResult &r)
{
    const QString text = QString::fromUtf8(r.err.trimmed().left(500));
    return text.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(displayText(text));
}

bool backendFileWanted(const QString &rel)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$"));
    return plain.match(rel).hasMatch() && !rel.endsWith(QLatin1String(".pyc"))
        && !rel.contains(QLatin1String("__pycache__")) && !rel.split(QLatin1Char('/')).contains(QStringLiteral(".."));
}

void putOctal(QByteArray &h, int at, int width, quint64 value)
{
    // width - 1 octal digits, zero padded, then NUL.
    const QByteArray digits = QByteArray::number(value, 8).rightJustified(width - 1, '0');
    for (int i = 0; i < width - 1; ++i)
        h[at + i] = digits.at(digits.size() - (width - 1) + i);
    h[at + width - 1] = '\0';
}

}  // namespace

BackendBundle scanBackend(const QString &folder)
{
    BackendBundle b;
    QStringList files;
    QDirIterator it(folder, QDir::Files | QDir::NoSymLinks | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QString rel = QDir(folder).relativeFilePath(it.filePath());
        if (backendFileWanted(rel))
            files << rel;
    }
    if (!files.contains(QStringLiteral("ingot_train/__init__.py"))) {
        b.error = ShellJobRunnerText::tr("%1 does not hold Ingot's training backend (ingot_train/__init__.py).").arg(displayName(folder));
        return b;
    }
    // `find . -print0 | LC_ALL=C sort -z`: byte order of "./path".
    std::sort(files.begin(), files.end(), [](const QString &x, const QString &y) { return x.toUtf8() < y.toUtf8(); });
    QByteArray lines;
    for (const QString &rel : std::as_const(files)) {
        QFile f(folder + QLatin1Char('/') + rel);
        if (!f.open(QIODevice::ReadOnly)) {
            b.error = ShellJobRunnerText::tr("Cannot read %1.").arg(displayName(f.fileName()));
            return b;
        }
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        lines += h.result().toHex() + "  ./" + rel.toUtf8() + '\n';
    }
    b.files = files;
    b.hash = QString::fromLatin1(QCryptographicHash::hash(lines, QCryptographicHash::Sha256).toHex());
    return b;
}

QByteArray tarBackend(const QString &folder, const QStringList &files)
{
    QByteArray tar;
    for (const QString &rel : files) {
        QFile f(folder + QLatin1Char('/') + rel);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        const QByteArray data = f.readAll();
        QByteArray name = rel.toUtf8(), prefix;
        if (name.size() > 100) {
            const int cut = name.lastIndexOf('/', 155);
            if (cut <= 0 || name.size() - cut - 1 > 100)
                return {};
            prefix = name.left(cut);
            name = name.mid(cut + 1);
        }
        QByteArray h(512, '\0');
        h.replace(0, name.size(), name);
        putOctal(h, 100, 8, (QFileInfo(f).permissions() & QFileDevice::ExeOwner) ? 0755 : 0644);
        putOctal(h, 108, 8, 0);
        putOctal(h, 116, 8, 0);
        putOctal(h, 124, 12, quint64(data.size()));
        putOctal(h, 136, 12, quint64(std::max<qint64>(0, QFileInfo(f).lastModified().toSecsSinceEpoch())));
        h[156] = '0';
        h.replace(257, 6, QByteArray("ustar\0", 6));
        h.replace(263, 2, "00");
        h.replace(345, prefix.size(), prefix);
        h.replace(148, 8, QByteArray(8, ' '));
        quint32 sum = 0;
        for (const char c : std::as_const(h))
            sum += static_cast<unsigned char>(c);
        const QByteArray chk = QByteArray::number(sum, 8).rightJustified(6, '0');
        h.replace(148, 6, chk);
        h[154] = '\0';
        h[155] = ' ';
        tar += h;
        tar += data;
        tar += QByteArray((512 - data.size() % 512) % 512, '\0');
    }
    tar += QByteArray(1024, '\0');
    return tar;
}

ShellJobRunner::ShellJobRunner(std::shared_ptr<RemoteShell> shell, ShellJobRunnerOptions options)
    : m_shell(std::move(shell)), m_options(std::move(options))
{
    if (m_options.where.isEmpty())
        m_options.where = QStringLiteral("shell");
    if (m_options.describe.isEmpty())
        m_options.describe = m_shell->describe();
    if (m_options.backendSource.isEmpty())
        m_options.backendSource = backendLocation();
}

ShellJobRunner::~ShellJobRunner() = default;

ShellResult ShellJobRunner::run(const char *body, const QVector<QByteArray> &args, const QByteArray &input,
                                qint64 maxOut, int timeoutMs, const char *functions)
{
    ShellResult r = m_shell->run(script(body, functions), args, input, maxOut, timeoutMs);
    QMutexLocker lock(&m_mutex);
    m_unreachable = r.ran() ? QString() : ShellJobRunnerText::tr("%1 cannot be reached: %2").arg(displayName(m_options.describe), r.error);
    return r;
}

bool ShellJobRunner::open(QString *error)
{
    const ShellResult r = run(openScript, {}, {}, 1 << 16, smallTimeoutMs);
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    const QList<QByteArray> f = r.out.split('\0');
    if (r.exitCode != 0 || f.size() < 4 || !f.at(0).startsWith('/')) {
        *error = ShellJobRunnerText::tr("%1 did not say where the home folder is.").arg(displayName(m_options.describe)) + said(r);
        return false;
    }
    BackendBundle bundle = scanBackend(m_options.backendSource);
    if (!bundle.error.isEmpty()) {
        *error = bundle.error;
        return false;
    }
    QMutexLocker lock(&m_mutex);
    m_home = QDir::cleanPath(nameFromBytes(f.at(0)));
    m_jobsRoot = m_options.jobsRoot.isEmpty()
        ? QDir::cleanPath(nameFromBytes(f.at(1))) + QStringLiteral("/Ingot/ingot/jobs")
        : QDir::cleanPath(m_options.jobsRoot);
    m_cacheRoot = m_options.cacheRoot.isEmpty() ? QDir::cleanPath(nameFromBytes(f.at(2))) + QStringLiteral("/ingot")
                                                : QDir::cleanPath(m_options.cacheRoot);
    // $SSH_CONNECTION: "client-address client-port server-address server-port"; the server address is the one this
    // connection reached, so the other hosts (reached the same way) can reach it too.
    const QList<QByteArray> conn = f.at(3).simplified().split(' ');
    m_reached = conn.size() == 4 ? QString::fromLatin1(conn.at(2)) : QString();
    m_neuronEnv.clear();
    for (int i = 4, k = 0; i + 1 < f.size() && k < 2; i += 2, ++k)
        if (f.at(i) == "set")
            m_neuronEnv.insert(QLatin1String(k == 0 ? "NEURON_CC_FLAGS" : "NEURON_COMPILE_CACHE_URL"), QString::fromUtf8(f.at(i + 1)));
    m_backendHash = bundle.hash;
    m_backendFiles = bundle.files;
    m_open = true;
    return true;
}

bool ShellJobRunner::isOpen() const
{
    QMutexLocker lock(&m_mutex);
    return m_open;
}

QString ShellJobRunner::jobsRoot() const
{
    QMutexLocker lock(&m_mutex);
    return m_jobsRoot;
}

QString ShellJobRunner::backendDir() const
{
    QMutexLocker lock(&m_mutex);
    return m_cacheRoot + QStringLiteral("/backend/") + m_backendHash;
}

QProcessEnvironment ShellJobRunner::neuronEnvironment() const
{
    QMutexLocker lock(&m_mutex);
    return m_neuronEnv;
}

StoreLocation ShellJobRunner::cacheStore(const QString &path) const
{
    return m_options.storeKind.isEmpty() ? StoreLocation::local(path) : StoreLocation{m_options.storeKind, m_options.where, path};
}

QString ShellJobRunner::homeDir() const
{
    QMutexLocker lock(&m_mutex);
    return m_home;
}

QString ShellJobRunner::masterAddress() const
{
    QMutexLocker lock(&m_mutex);
    static const QRegularExpression address(QStringLiteral("^[0-9A-Fa-f.:]+$"));
    return address.match(m_reached).hasMatch() ? m_reached : QStringLiteral("127.0.0.1");
}

QString ShellJobRunner::unreachable() const
{
    QMutexLocker lock(&m_mutex);
    return m_unreachable;
}

bool ShellJobRunner::backendPresent(QString *error)
{
    const ShellResult r = run(backendCheckScript, {nameToBytes(backendDir()), m_backendHash.toLatin1()}, {}, 1 << 10,
                              uploadTimeoutMs, backendSumFunction);
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    return r.exitCode == 0;
}

bool ShellJobRunner::prepareLaunch(QString *error)
{
    if (!isOpen()) {
        *error = ShellJobRunnerText::tr("%1 is not connected.").arg(displayName(m_options.describe));
        return false;
    }
    {
        QMutexLocker lock(&m_mutex);
        if (m_backendChecked)
            return true;
    }
    QString why;
    if (backendPresent(&why)) {
        QMutexLocker lock(&m_mutex);
        m_backendChecked = true;
        return true;
    }
    if (!why.isEmpty()) {
        *error = why;
        return false;
    }
    const QByteArray tar = tarBackend(m_options.backendSource, m_backendFiles);
    if (tar.isEmpty()) {
        *error = ShellJobRunnerText::tr("Cannot pack the backend in %1.").arg(displayName(m_options.backendSource));
        return false;
    }
    const ShellResult r = run(backendDeployScript, {nameToBytes(backendDir()), m_backendHash.toLatin1()}, tar, 1 << 16,
                              uploadTimeoutMs, backendSumFunction);
    if (!r.ran()) {
        *error = ShellJobRunnerText::tr("Copying the training backend to %1 failed: %2").arg(displayName(m_options.describe), r.error);
        return false;
    }
    if (r.exitCode != 0) {
        const QString where = displayName(m_options.describe + QLatin1Char(':') + backendDir());
        switch (r.exitCode) {
        case 3: *error = ShellJobRunnerText::tr("Cannot create the folder for the training backend on %1.").arg(where); break;
        case 5: *error = ShellJobRunnerText::tr("Unpacking the training backend into %1 failed (is tar installed there?).").arg(where); break;
        case 6: *error = ShellJobRunnerText::tr("The training backend copied to %1 does not match its files here.").arg(where); break;
        default: *error = ShellJobRunnerText::tr("Cannot put the training backend in place at %1.").arg(where);
        }
        *error += said(r);
        return false;
    }
    QMutexLocker lock(&m_mutex);
    m_backendChecked = true;
    return true;
}

bool ShellJobRunner::makeFolder(const QString &folder, QString *error)
{
    const ShellResult r = run(makeFolderScript, {nameToBytes(folder)});
    if (!r.ran() || r.exitCode != 0) {
        *error = r.ran() ? ShellJobRunnerText::tr("Cannot create %1 on %2.").arg(displayName(folder), displayName(m_options.describe)) + said(r)
                         : unreachable();
        return false;
    }
    return true;
}

bool ShellJobRunner::writeFile(const QString &path, const QByteArray &data, bool executable, QString *error)
{
    const ShellResult r = run(writeScript, {nameToBytes(path), executable ? "1" : "0", QByteArray::number(data.size())},
                              data, 1 << 16, uploadTimeoutMs);
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    if (r.exitCode != 0) {
        const QString shown = displayName(path);
        switch (r.exitCode) {
        case 2: *error = ShellJobRunnerText::tr("Refused to write %1: not an absolute path.").arg(shown); break;
        case 3: *error = ShellJobRunnerText::tr("Cannot write %1: its folder does not exist.").arg(shown); break;
        case 5: *error = ShellJobRunnerText::tr("Writing %1 was cut short; nothing was changed.").arg(shown); break;
        case 6: *error = ShellJobRunnerText::tr("Cannot write %1: a folder has that name.").arg(shown); break;
        case 8: *error = ShellJobRunnerText::tr("Refused to write %1: its folder is a link (never followed).").arg(shown); break;
        default: *error = ShellJobRunnerText::tr("Cannot write %1 on %2.").arg(shown, displayName(m_options.describe));
        }
        *error += said(r);
        return false;
    }
    return true;
}

bool ShellJobRunner::startDetached(const QString &scriptPath, const QString &folder, QString *error)
{
    const ShellResult r = run(startScript, {nameToBytes(scriptPath), nameToBytes(folder)});
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    if (r.exitCode != 0) {
        *error = ShellJobRunnerText::tr("Cannot start %1 on %2.").arg(displayName(scriptPath), displayName(m_options.describe)) + said(r);
        return false;
    }
    return true;
}

FileChunk ShellJobRunner::readFile(const QString &path, qint64 offset, qint64 maxBytes)
{
    FileChunk c;
    const ShellResult r = run(readScript,
                              {nameToBytes(path), QByteArray::number(std::max<qint64>(0, offset)),
                               QByteArray::number(std::max<qint64>(0, maxBytes))},
                              {}, std::max<qint64>(0, maxBytes) + 64, smallTimeoutMs);
    if (!r.ran()) {
        c.error = unreachable();
        return c;
    }
    switch (r.exitCode) {
    case 0: break;
    case 3: return c;
    case 6: c.exists = true; c.error = ShellJobRunnerText::tr("a symbolic link (not followed)"); return c;
    case 7: c.exists = true; c.error = ShellJobRunnerText::tr("not a regular file"); return c;
    case 8: c.exists = true; c.error = ShellJobRunnerText::tr("permission denied"); return c;
    default: c.exists = true; c.error = ShellJobRunnerText::tr("cannot be read") + said(r); return c;
    }
    const int nl = r.out.indexOf('\n');
    const QList<QByteArray> head = nl > 0 ? r.out.left(nl).split(' ') : QList<QByteArray>();
    bool ok = false;
    c.size = head.value(0).toLongLong(&ok);
    c.modified = head.value(1).toDouble();
    if (!ok) {
        c.error = ShellJobRunnerText::tr("the host's answer is not in the expected form");
        return c;
    }
    c.exists = true;
    c.data = r.out.mid(nl + 1, int(std::min<qint64>(maxBytes, r.out.size())));
    return c;
}

QStringList ShellJobRunner::listFiles(const QString &folder, int depth)
{
    QStringList out;
    const ShellResult r = run(listScript, {nameToBytes(folder), QByteArray::number(std::max(0, depth) + 1)}, {},
                              64 << 20, smallTimeoutMs);
    if (!r.ran() || r.exitCode != 0)
        return out;
    const QList<QByteArray> names = r.out.split('\0');
    for (const QByteArray &n : names) {
        if (!n.isEmpty())
            out << nameFromBytes(n);
        if (out.size() > 100000)
            break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool ShellJobRunner::removeTree(const QString &folder, const QString &root, QString *error)
{
    const QString cleanRoot = QDir::cleanPath(root), cleanFolder = QDir::cleanPath(folder);
    QString parent, name;
    if (!cleanRoot.startsWith(QLatin1Char('/')) || !cleanFolder.startsWith(cleanRoot + QLatin1Char('/'))
        || !splitPath(cleanFolder, &parent, &name)) {
        *error = ShellJobRunnerText::tr("Refused to remove %1: it is not inside %2.").arg(displayName(folder), displayName(root));
        return false;
    }
    const ShellResult r = run(removeScript, {nameToBytes(cleanRoot), nameToBytes(parent), nameToBytes(name)}, {}, 1 << 16,
                              uploadTimeoutMs);
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    const QString shown = displayName(m_options.describe + QLatin1Char(':') + cleanFolder);
    switch (r.exitCode) {
    case 0: return true;
    case 3: *error = ShellJobRunnerText::tr("Cannot remove %1: it no longer exists.").arg(shown); break;
    case 5: *error = ShellJobRunnerText::tr("Refused to remove %1: not a folder (a link is never followed).").arg(shown); break;
    case 7: *error = ShellJobRunnerText::tr("Cannot remove %1: it could not be renamed aside.").arg(shown); break;
    case 8: *error = ShellJobRunnerText::tr("Refused to remove %1: it is not inside %2 (a link leads elsewhere).").arg(shown, displayName(root)); break;
    default: *error = ShellJobRunnerText::tr("Removing %1 stopped part-way; what is left is in a .ingot-removing-* folder beside it.").arg(shown);
    }
    return false;
}

qint64 ShellJobRunner::treeSize(const QString &folder)
{
    const ShellResult r = run(treeSizeScript, {nameToBytes(folder)}, {}, 1 << 10, uploadTimeoutMs);
    return r.ran() && r.exitCode == 0 ? r.out.trimmed().toLongLong() : 0;
}

PathInfo ShellJobRunner::pathInfo(const QString &path)
{
    PathInfo p;
    const ShellResult r = run(pathInfoScript, {nameToBytes(path)}, {}, 64, smallTimeoutMs);
    if (!r.ran() || r.exitCode != 0 || !r.out.endsWith('.')) {
        p.error = r.ran() ? ShellJobRunnerText::tr("%1 could not be checked on %2.").arg(displayName(path), displayName(m_options.describe))
                          : unreachable();
        return p;
    }
    const QByteArray f = r.out;
    p.isLink = f.contains('l');
    p.exists = f.contains('e') || p.isLink;
    p.isDir = f.contains('d');
    p.isFile = f.contains('f');
    p.isExecutable = f.contains('x');
    return p;
}

ProcessState ShellJobRunner::processState(const ProcessIdentity &id)
{
    if (!id.isValid())
        return ProcessState::Unknown;
    const ShellResult r = run(procScript, {QByteArray::number(id.pid), id.bootId.toLatin1()}, {}, 1 << 16, smallTimeoutMs);
    if (!r.ran() || r.exitCode == 9)
        return ProcessState::Unknown;
    if (r.exitCode != 0)
        return ProcessState::Gone;
    ProcessIdentity now;
    char state = 0;
    if (!parseProcStat(r.out.trimmed(), &now, &state) || now.pid != id.pid || now.startTime != id.startTime
        || state == 'Z' || state == 'X')
        return ProcessState::Gone;
    return ProcessState::Running;
}

bool ShellJobRunner::signalProcess(const ProcessIdentity &id, int sig, QString *error)
{
    if (!id.isValid() || sig < 0 || sig > 64) {
        *error = ShellJobRunnerText::tr("Process %1 is not a process Ingot recorded.").arg(id.pid);
        return false;
    }
    const ShellResult r = run(signalScript, {QByteArray::number(id.pid), QByteArray::number(id.startTime),
                                             id.bootId.toLatin1(), QByteArray::number(sig)});
    if (!r.ran()) {
        *error = unreachable();
        return false;
    }
    switch (r.exitCode) {
    case 0: return true;
    case 20: *error = ShellJobRunnerText::tr("%1 restarted since the job started: process %2 is not the job's.").arg(displayName(m_options.describe)).arg(id.pid); break;
    case 21: *error = ShellJobRunnerText::tr("Process %1 has ended (its pid is not the job's launcher any more).").arg(id.pid); break;
    case 9: *error = ShellJobRunnerText::tr("%1 has no /proc: its processes cannot be checked.").arg(displayName(m_options.describe)); break;
    default: *error = ShellJobRunnerText::tr("Cannot signal process %1 on %2.").arg(id.pid).arg(displayName(m_options.describe)) + said(r);
    }
    return false;
}

int ShellJobRunner::signalJobGroup(qint64 pgid, const QString &jobId, int sig)
{
    if (pgid <= 1 || !isJobId(jobId) || sig < 0 || sig > 64)
        return 0;
    const ShellResult r = run(groupScript, {QByteArray::number(pgid), jobId.toLatin1(), QByteArray::number(sig)}, {},
                              1 << 10, smallTimeoutMs);
    return r.ran() && r.exitCode == 0 ? r.out.trimmed().toInt() : 0;
}

int ShellJobRunner::signalChildren(const ProcessIdentity &parent, const QString &jobId, int sig)
{
    if (!parent.isValid() || !isJobId(jobId) || sig < 0 || sig > 64)
        return 0;
    const ShellResult r = run(childrenScript, {QByteArray::number(parent.pid), QByteArray::number(parent.startTime),
                                               parent.bootId.toLatin1(), jobId.toLatin1(), QByteArray::number(sig)},
                              {}, 1 << 10, smallTimeoutMs);
    return r.ran() && r.exitCode == 0 ? r.out.trimmed().toInt() : 0;
}

int ShellJobRunner::freePort(const QList<int> &taken, QString *error)
{
    const ShellResult r = run(portsScript, {}, {}, 64 << 20, smallTimeoutMs);
    if (!r.ran()) {
        *error = unreachable();
        return 0;
    }
    if (r.exitCode != 0) {
        *error = ShellJobRunnerText::tr("%1 has no /proc/net/tcp: cannot find a free port for the rendezvous.").arg(displayName(m_options.describe));
        return 0;
    }
    QSet<int> used;
    for (const QByteArray &line : r.out.split('\n')) {
        const int colon = line.lastIndexOf(':');
        bool ok = false;
        const int port = colon > 0 ? line.mid(colon + 1).trimmed().toInt(&ok, 16) : 0;
        if (ok)
            used.insert(port);
    }
    // Below the usual ephemeral range (32768-60999), so an outgoing connection does not take it meanwhile.
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const int port = 20000 + int(QRandomGenerator::global()->bounded(12000));
        if (port != 29400 && !used.contains(port) && !taken.contains(port))
            return port;
    }
    *error = ShellJobRunnerText::tr("No free TCP port on %1 for the rendezvous.").arg(displayName(m_options.describe));
    return 0;
}

QVector<PythonInfo> ShellJobRunner::detectPythons(const std::atomic_bool *stop)
{
    QVector<PythonInfo> out;
    if (stop && stop->load())
        return out;
    const ShellResult r = run(pythonsScript, {QByteArray(pythonProbeScript)}, {}, 4 << 20, 3 * 60 * 1000);
    if (!r.ran() || r.exitCode != 0)
        return out;
    const QList<QByteArray> f = r.out.split('\0');
    for (int i = 0; i + 1 < f.size(); i += 2) {
        PythonInfo info;
        info.path = nameFromBytes(f.at(i));
        if (f.at(i + 1).trimmed().isEmpty())
            info.error = ShellJobRunnerText::tr("does not run Python 3 (or did not answer within 60 s)");
        else
            info = parsePythonProbe(info.path, f.at(i + 1));
        out << info;
    }
    return out;
}

QString ShellJobRunner::bootId()
{
    const ShellResult r = run(bootScript, {}, {}, 1 << 10, smallTimeoutMs);
    return r.ran() && r.exitCode == 0 ? QString::fromLatin1(r.out.trimmed()) : QString();
}

QString ShellJobRunner::findIngotCli(QString *error)
{
    const ShellResult r = run(ingotCliScript, {}, {}, 1 << 16, smallTimeoutMs);
    if (!r.ran()) {
        *error = unreachable();
        return {};
    }
    return r.exitCode == 0 ? nameFromBytes(r.out) : QString();
}

int ShellJobRunner::runIngotCli(const QStringList &args, int timeoutMs, QByteArray *output, QString *error,
                                const std::atomic_bool *stop)
{
    const QString ingotCli = findIngotCli(error);
    if (ingotCli.isEmpty()) {
        if (error->isEmpty())
            *error = ShellJobRunnerText::tr("%1 has no ingot-cli: install Ingot there (its package, or ingot-cli on the "
                                            "PATH).").arg(displayName(m_options.describe));
        return -1;
    }
    // In the background there, in a folder of its own below the jobs folder, asked once a second whether it ended: a
    // stop (or the time limit) ends it there, which ending ssh here would not.
    const QString name = QStringLiteral("/.ingot-cli-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    const QByteArray dir = nameToBytes(jobsRoot() + name);
    QVector<QByteArray> a{dir, nameToBytes(ingotCli)};
    for (const QString &x : args)
        a << nameToBytes(x);
    const ShellResult started = run(ingotCliStartScript, a, {}, 1 << 16, smallTimeoutMs);
    if (!started.ran() || started.exitCode != 0) {
        *error = !started.ran() ? unreachable()
                                : ShellJobRunnerText::tr("ingot-cli could not be started on %1.").arg(displayName(m_options.describe))
                                      + said(started);
        return -1;
    }
    QElapsedTimer waited;
    waited.start();
    int code = -1;
    int unanswered = 0;
    for (;;) {
        const bool stopped = stop && stop->load();
        if (stopped || (timeoutMs >= 0 && waited.elapsed() > timeoutMs)) {
            const ShellResult s = run(ingotCliStopScript, {dir}, {}, 1 << 16, 2 * smallTimeoutMs);
            if (s.ran() && s.out.trimmed() == "0") {  // it had ended by itself first: its result stands
                code = 0;
                break;
            }
            run(ingotCliRemoveScript, {dir}, {}, 1 << 16, smallTimeoutMs);
            *error = stopped ? ShellJobRunnerText::tr("Stopped: ingot-cli on %1 was asked to stop and removed what it was writing.")
                                   .arg(displayName(m_options.describe))
                             : ShellJobRunnerText::tr("ingot-cli on %1 did not end within %2 s: it was stopped.")
                                   .arg(displayName(m_options.describe)).arg(timeoutMs / 1000);
            return -1;
        }
        const ShellResult w = run(ingotCliWaitScript, {dir}, {}, 64, smallTimeoutMs);
        if (w.ran() && w.exitCode == 0) {
            code = w.out.trimmed().toInt();
            break;
        }
        if (w.ran() && w.exitCode != 5) {
            *error = ShellJobRunnerText::tr("ingot-cli's folder on %1 is gone.").arg(displayName(m_options.describe)) + said(w);
            return -1;
        }
        if (!w.ran() && ++unanswered >= 3) {  // the host went away: it goes on there
            *error = unreachable();
            return -1;
        }
        if (w.ran())
            unanswered = 0;
        // Asked again in a second; a stop is seen meanwhile within kStopCheckMs.
        const QDeadlineTimer next(kIngotCliAskMs);
        while (!next.hasExpired() && !(stop && stop->load()))
            QThread::msleep(kStopCheckMs);
    }
    // Its output, the last 16 MiB, then its folder removed.
    const qint64 limit = 16 << 20;
    const QString out = nameFromBytes(dir) + QStringLiteral("/out");
    *output = readFile(out, std::max<qint64>(0, readFile(out, 0, 0).size - limit), limit).data;
    run(ingotCliRemoveScript, {dir}, {}, 1 << 16, smallTimeoutMs);
    return code;
}

}  // namespace ingot
