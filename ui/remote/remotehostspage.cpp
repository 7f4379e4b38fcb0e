#include "ui/remote/remotehostspage.h"

#include "models/common/tones.h"
#include "ui/common/keyboard.h"
#include "services/cache/cachelocation.h"
#include "services/remote/remotehosts.h"
#include "services/remote/sshconnection.h"
#include "services/remote/sshresolve.h"
#include "services/stores/remoteshell.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "ui/remote/hostkeydialog.h"
#include "ui/remote/passworddialog.h"

#include <QAction>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <cmath>

namespace ingot {

using State = RemoteHostStatus::State;

namespace {

// Failures worth trying again by themselves once a working connection dropped: the network, the server, the DNS
// may come back. Keys and authentication need the person.
bool isTransient(SshError e)
{
    switch (e) {
    case SshError::ConnectionRefused:
    case SshError::Timeout:
    case SshError::NameResolution:
    case SshError::Unreachable:
    case SshError::ConnectionLost:
        return true;
    default:
        return false;
    }
}

// A few words for the list ("failed: …"); the details pane has the sentences.
QString shortReason(SshError e)
{
    switch (e) {
    case SshError::None: return {};
    case SshError::InvalidHost: return RemoteHostsPage::tr("not a valid host name");
    case SshError::SshMissing: return RemoteHostsPage::tr("ssh is not installed");
    case SshError::HostKeyUnknown: return RemoteHostsPage::tr("host key not confirmed");
    case SshError::HostKeyChanged: return RemoteHostsPage::tr("host key CHANGED, refused");
    case SshError::AuthenticationFailed: return RemoteHostsPage::tr("authentication failed");
    case SshError::ConnectionRefused: return RemoteHostsPage::tr("connection refused");
    case SshError::Timeout: return RemoteHostsPage::tr("no answer in time");
    case SshError::NameResolution: return RemoteHostsPage::tr("host name does not resolve");
    case SshError::Unreachable: return RemoteHostsPage::tr("host unreachable");
    case SshError::ConnectionLost: return RemoteHostsPage::tr("connection lost");
    case SshError::OutputTooLarge: return RemoteHostsPage::tr("too much output");
    case SshError::Other: return RemoteHostsPage::tr("ssh failed");
    }
    return {};
}

// The name a host's key is recorded under in known_hosts, as ssh-keygen -R wants it.
QString knownHostsName(const SshResolved &r)
{
    if (!r.hostKeyAlias.isEmpty())
        return r.hostKeyAlias;
    return r.port == 22 ? r.hostname : QStringLiteral("[%1]:%2").arg(r.hostname).arg(r.port);
}

// Checks a folder on the host: $1 as typed (absolute, or ~/...). Prints the path with ~ expanded; exit 3: missing,
// 4: relative, 5: not a folder, 6: cannot be entered.
const char kFolderScript[] = R"SH(
p=$1
case $p in
  "~") p=$HOME ;;
  "~/"*) p=$HOME/${p#"~/"} ;;
esac
case $p in
  /*) ;;
  *) exit 4 ;;
esac
[ -e "$p" ] || [ -L "$p" ] || exit 3
[ -d "$p" ] || exit 5
cd -- "$p" 2>/dev/null || exit 6
printf '%s' "$p"
)SH";

QLabel *valueLabel(QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

}  // namespace

struct RemoteHostsPage::ConnectOutcome {
    bool ok = false;
    SshError error = SshError::None;
    QString text;
    QString keyName;  // HostKeyChanged: the known_hosts name and file, for the way out
    QString keyFile;
};

RemoteHostsPage::RemoteHostsPage(QWidget *parent)
    : QWidget(parent), m_model(new RemoteHostsModel(this)), m_checkTimer(new QTimer(this)), m_ticker(new QTimer(this))
{
    registerRemoteStores();  // the cache page opens "ssh" locations through the StoreFactory
    m_checkTimer->setInterval(10000);
    connect(m_checkTimer, &QTimer::timeout, this, &RemoteHostsPage::checkConnections);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &RemoteHostsPage::tick);
    buildUi();
    updateActions();
    // Hosts added or removed elsewhere, or another ssh config chosen in Settings: read the list again (once it has
    // been shown; the first show reads it anyway).
    connect(RemoteHostsSignals::instance(), &RemoteHostsSignals::hostsChanged, this, [this] {
        if (m_shownOnce && !m_notifying)
            reloadHosts();
    });
}

void RemoteHostsPage::notifyHostsChanged()
{
    m_notifying = true;  // this page has its list already
    RemoteHosts::instance().notifyChanged();
    m_notifying = false;
}

RemoteHostsPage::~RemoteHostsPage()
{
    // A worker waiting for a passphrase gets "cancelled" and goes on; nothing it returns reaches this page.
    for (const std::weak_ptr<GuiAskPass> &w : std::as_const(m_askPasses))
        if (auto ask = w.lock())
            ask->close();
    m_loading.discard();
    m_resolving.discard();
    m_checking.discard();
    m_cacheLookup.discard();
}

void RemoteHostsPage::createActions()
{
    m_add = new QAction(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("&Add host…"), this);
    m_add->setToolTip(tr("Add a host by name: an alias of your ssh config, host, user@host or user@host:port"));
    connect(m_add, &QAction::triggered, this, &RemoteHostsPage::showAddHostDialog);
    m_remove = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Remove"), this);
    m_remove->setToolTip(tr("Forget a host added in Ingot (hosts of your ssh config are edited there)"));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_remove, &QAction::triggered, this, [this] { removeHost(currentHost()); });
    m_connect = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Connect"), this);
    m_connect->setToolTip(tr("Open the master connection to this host (ssh with your config, keys and agent)"));
    connect(m_connect, &QAction::triggered, this, [this] { connectHost(currentHost()); });
    m_disconnect = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Disconnect"), this);
    m_disconnect->setToolTip(tr("End the master connection (and stop retrying)"));
    connect(m_disconnect, &QAction::triggered, this, [this] { disconnectHost(currentHost()); });
    m_openCache = new QAction(QIcon(QStringLiteral(":/icons/cache.svg")), tr("Open compile &cache"), this);
    m_openCache->setToolTip(tr("Ask the host where its Neuron tools keep the compile cache (NEURON_CC_FLAGS "
                               "--cache_dir, NEURON_COMPILE_CACHE_URL, else /var/tmp/neuron-compile-cache) and show it"));
    connect(m_openCache, &QAction::triggered, this, [this] { openCompileCache(currentHost()); });
    m_openFolder = new QAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &folder on host…"), this);
    m_openFolder->setToolTip(tr("Show a compile cache folder of your choice on this host"));
    connect(m_openFolder, &QAction::triggered, this, &RemoteHostsPage::showOpenFolderDialog);
    m_reload = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Re&load hosts"), this);
    m_reload->setToolTip(tr("Read the ssh config again"));
    connect(m_reload, &QAction::triggered, this, [this] {
        reloadHosts();
        notifyHostsChanged();  // the ssh config may have been edited: the launcher's list too
    });
}

void RemoteHostsPage::buildUi()
{
    createActions();
    m_configLabel = new QLabel(this);
    m_configLabel->setWordWrap(true);
    m_configLabel->setTextFormat(Qt::PlainText);
    QPalette pal = m_configLabel->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Disabled, QPalette::WindowText));
    m_configLabel->setPalette(pal);

    auto *buttons = new QHBoxLayout;
    for (QAction *a : {m_add, m_remove, m_connect, m_disconnect, m_reload}) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);

    m_view = new QTreeView(this);
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAllColumnsShowFocus(true);
    m_view->setIconSize(QSize(14, 14));
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(RemoteHostsModel::HostColumn, 260);
    m_view->setColumnWidth(RemoteHostsModel::SourceColumn, 110);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    addContextMenuShortcut(m_view);
    for (QAction *a : {m_connect, m_disconnect, m_openCache, m_openFolder, m_remove})
        m_view->addAction(a);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        showDetails();
        updateActions();
    });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &i) {
        const QString host = i.siblingAtColumn(0).data(RemoteHostsModel::HostTextRole).toString();
        if (m_model->status(host).state == State::Connected)
            openCompileCache(host);
        else
            connectHost(host);
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from) {
        if (from.row() == m_view->currentIndex().row()) {
            showDetails();
            updateActions();
        }
    });

    auto *left = new QWidget(this);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addLayout(buttons);
    ll->addWidget(m_view, 1);
    ll->addWidget(m_configLabel);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(buildDetails());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *col = new QVBoxLayout(this);
    col->addWidget(split, 1);
}

QWidget *RemoteHostsPage::buildDetails()
{
    auto *pane = new QWidget(this);
    auto *col = new QVBoxLayout(pane);
    col->setContentsMargins(6, 0, 0, 0);
    m_title = new QLabel(pane);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    m_title->setFont(f);
    m_title->setTextFormat(Qt::PlainText);
    m_stateText = valueLabel(pane);
    auto *connectRow = new QHBoxLayout;
    for (QAction *a : {m_connect, m_disconnect}) {
        auto *b = new QToolButton(pane);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        connectRow->addWidget(b);
    }
    connectRow->addStretch(1);

    m_resolvedBox = new QGroupBox(tr("What ssh resolves (ssh -G)"), pane);
    auto *form = new QFormLayout(m_resolvedBox);
    const std::pair<const char *, QString> fields[] = {
        {"hostname", tr("Host name:")},     {"user", tr("User:")},
        {"port", tr("Port:")},              {"identityfile", tr("Identity files:")},
        {"proxyjump", tr("Proxy jump:")},   {"knownhosts", tr("Known hosts file:")},
    };
    for (const auto &[key, label] : fields) {
        QLabel *v = valueLabel(m_resolvedBox);
        m_fields.insert(QLatin1String(key), v);
        form->addRow(label, v);
    }

    auto *cacheBox = new QGroupBox(tr("Compile cache on this host"), pane);
    auto *cl = new QVBoxLayout(cacheBox);
    m_cacheText = valueLabel(cacheBox);
    auto *cacheRow = new QHBoxLayout;
    for (QAction *a : {m_openCache, m_openFolder}) {
        auto *b = new QToolButton(cacheBox);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        cacheRow->addWidget(b);
    }
    cacheRow->addStretch(1);
    cl->addWidget(m_cacheText);
    cl->addLayout(cacheRow);

    col->addWidget(m_title);
    col->addWidget(m_stateText);
    col->addLayout(connectRow);
    col->addWidget(m_resolvedBox);
    col->addWidget(cacheBox);
    col->addStretch(1);
    return pane;
}

void RemoteHostsPage::setCheckIntervalMs(int ms)
{
    m_checkTimer->setInterval(ms);
}

void RemoteHostsPage::setRetryDelays(const QVector<int> &seconds)
{
    if (!seconds.isEmpty())
        m_delays = seconds;
}

QString RemoteHostsPage::currentHost() const
{
    return m_view->currentIndex().siblingAtColumn(0).data(RemoteHostsModel::HostTextRole).toString();
}

void RemoteHostsPage::selectHost(const QString &host)
{
    const QModelIndex i = m_model->indexOf(host);
    if (i.isValid())
        m_view->setCurrentIndex(i);
}

bool RemoteHostsPage::isBusy(const QString &host) const
{
    const auto it = m_runs.constFind(host);
    return it != m_runs.cend() && it->busyGeneration != 0;
}

void RemoteHostsPage::updateActions()
{
    const QString host = currentHost();
    const bool has = !host.isEmpty();
    const RemoteHostStatus st = m_model->status(host);
    const bool busy = isBusy(host);
    const QModelIndex cur = m_view->currentIndex();
    m_remove->setEnabled(has && !cur.siblingAtColumn(0).data(RemoteHostsModel::FromSshConfigRole).toBool());
    m_connect->setEnabled(has && !busy && st.state != State::Connected);
    m_connect->setText(st.state == State::Lost ? tr("Retry &now") : tr("&Connect"));
    m_disconnect->setEnabled(has && !busy && (st.state == State::Connected || st.state == State::Lost));
    m_openCache->setEnabled(has && !busy && !m_cacheLookup.isRunning());
    m_openFolder->setEnabled(has && !busy && !m_cacheLookup.isRunning());
}

void RemoteHostsPage::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (!m_shownOnce) {
        m_shownOnce = true;
        reloadHosts();  // the first look finds masters already running (another Ingot, the CLI)
    } else {
        checkConnections();
    }
    m_checkTimer->start();
}

void RemoteHostsPage::hideEvent(QHideEvent *e)
{
    QWidget::hideEvent(e);
    m_checkTimer->stop();
}

void RemoteHostsPage::reloadHosts()
{
    const QString config = RemoteHosts::sshConfigPath();
    m_configLabel->setText(tr("Hosts of %1 (and the files it includes) and hosts you added. ssh runs with your "
                              "config, keys and agent.")
                               .arg(displayName(config)));
    m_loading.discard();
    m_loading = runTask(this, [](TaskControl &) { return RemoteHosts::instance().hosts(); },
                        [this](const QVector<RemoteHostEntry> &hosts) {
                            const QString keep = currentHost();
                            m_resolvedFor = QStringLiteral("\n");  // the config may have changed: resolve again
                            m_model->setHosts(hosts);
                            selectHost(keep.isEmpty() && !hosts.isEmpty() ? hosts.first().name : keep);
                            showDetails();
                            updateActions();
                            Q_EMIT hostsReloaded();
                            m_firstCheck = true;
                            checkConnections();
                        });
}

bool RemoteHostsPage::addHost(const QString &text, QString *error)
{
    const QString name = text.trimmed();
    SshHost host;
    QString why;
    if (!parseSshHost(name, &host, &why)) {
        if (error)
            *error = why;
        return false;
    }
    AppSettings::addRemoteHost(name);
    // Listed at once; the reload that follows puts it in its place (after the ssh config's hosts).
    QVector<RemoteHostEntry> hosts;
    for (int i = 0; i < m_model->hostCount(); ++i)
        hosts << *m_model->entry(i);
    if (!m_model->indexOf(name).isValid())
        hosts << RemoteHostEntry{name, host, false};
    m_model->setHosts(hosts);
    selectHost(name);
    reloadHosts();
    notifyHostsChanged();
    Q_EMIT statusChanged(tr("Added %1.").arg(displayName(name)), false);
    return true;
}

void RemoteHostsPage::showAddHostDialog()
{
    auto *dlg = new QDialog(this);
    dlg->setObjectName(QStringLiteral("addHostDialog"));
    dlg->setWindowTitle(tr("Add a remote host"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    auto *edit = new QLineEdit(dlg);
    edit->setPlaceholderText(tr("trn1-dev, ubuntu@10.0.0.5 or ubuntu@trn1.example.com:2222"));
    auto *hint = new QLabel(tr("An alias of your ssh config, a host name, user@host or user@host:port. Ingot connects "
                               "with ssh, so your config, keys, agent and ProxyJump apply."),
                            dlg);
    hint->setWordWrap(true);
    auto *problem = new QLabel(dlg);
    problem->setObjectName(QStringLiteral("problem"));
    problem->setWordWrap(true);
    problem->setTextFormat(Qt::PlainText);
    problem->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dlg);
    QPushButton *ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Add"));
    ok->setEnabled(false);
    connect(edit, &QLineEdit::textChanged, dlg, [edit, problem, ok] {
        SshHost h;
        QString why;
        const bool valid = parseSshHost(edit->text().trimmed(), &h, &why);
        ok->setEnabled(valid);
        problem->setText(valid || edit->text().isEmpty() ? QString() : why);
    });
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dlg, [this, dlg, edit, problem] {
        QString why;
        if (addHost(edit->text(), &why))
            dlg->accept();
        else
            problem->setText(why);
    });
    auto *col = new QVBoxLayout(dlg);
    col->addWidget(new QLabel(tr("Host:"), dlg));
    col->addWidget(edit);
    col->addWidget(hint);
    col->addWidget(problem);
    col->addWidget(buttons);
    dlg->resize(460, dlg->sizeHint().height());
    dlg->open();
}

bool RemoteHostsPage::removeHost(const QString &host)
{
    const QModelIndex i = m_model->indexOf(host);
    if (!i.isValid() || i.data(RemoteHostsModel::FromSshConfigRole).toBool())
        return false;
    AppSettings::removeRemoteHost(host);
    m_runs.remove(host);
    m_cacheTexts.remove(host);
    QVector<RemoteHostEntry> hosts;
    for (int r = 0; r < m_model->hostCount(); ++r)
        if (m_model->entry(r)->name != host)
            hosts << *m_model->entry(r);
    m_model->setHosts(hosts);
    if (!hosts.isEmpty())
        selectHost(hosts.first().name);
    showDetails();
    updateActions();
    notifyHostsChanged();
    Q_EMIT statusChanged(tr("Removed %1 from the list; its master connection, if any, ends by itself.")
                             .arg(displayName(host)),
                         false);
    return true;
}

void RemoteHostsPage::setHostStatus(const QString &host, const RemoteHostStatus &status)
{
    if (m_model->status(host) == status)
        return;
    m_model->setStatus(host, status);
    updateActions();
    Q_EMIT hostStatusChanged(host, status);
}

// What ssh -G says about the selected host, its state in sentences, and where its cache is.
void RemoteHostsPage::showDetails()
{
    const QString host = currentHost();
    m_title->setText(host.isEmpty() ? tr("No host selected") : displayName(host));
    const RemoteHostStatus st = m_model->status(host);
    m_stateText->setText(host.isEmpty() ? tr("Add a host, or add Host entries to your ssh config.")
                                        : st.detail.isEmpty() ? remoteStateText(st)
                                                              : remoteStateText(st) + QStringLiteral("\n\n") + st.detail);
    m_cacheText->setText(m_cacheTexts.value(
        host, tr("Not looked up yet. \"Open compile cache\" asks the host where its Neuron tools keep the cache.")));
    if (host == m_resolvedFor)
        return;  // ssh -G already ran for this host (states change often; the config does not)
    m_resolvedFor = host;
    m_resolvedBox->setTitle(host.isEmpty() ? tr("What ssh resolves (ssh -G)")
                                           : tr("What ssh resolves (ssh -G %1)").arg(displayName(host)));
    for (QLabel *l : std::as_const(m_fields))
        l->setText(host.isEmpty() ? QString() : tr("…"));
    const QModelIndex i = m_model->indexOf(host);
    if (!i.isValid())
        return;
    const SshHost sshHost = m_model->entry(i.row())->host;
    m_resolving.discard();
    m_resolving = runTask(
        this,
        [sshHost](TaskControl &) {
            std::pair<SshResolved, QString> out;
            if (!resolveSshHost(SshClientConfig::fromSettings(), sshHost, &out.first, &out.second) && out.second.isEmpty())
                out.second = tr("ssh -G failed.");
            return out;
        },
        [this, host](const std::pair<SshResolved, QString> &r) {
            if (host != currentHost())
                return;
            if (!r.second.isEmpty()) {
                for (QLabel *l : std::as_const(m_fields))
                    l->clear();
                m_fields.value(QStringLiteral("hostname"))->setText(displayText(r.second));
                return;
            }
            const SshResolved &s = r.first;
            auto names = [](const QStringList &list) {
                QStringList out;
                for (const QString &x : list)
                    out << displayName(x);
                return out.join(QLatin1Char('\n'));
            };
            m_fields.value(QStringLiteral("hostname"))->setText(displayName(s.hostname));
            m_fields.value(QStringLiteral("user"))->setText(displayName(s.user));
            m_fields.value(QStringLiteral("port"))->setText(QString::number(s.port));
            m_fields.value(QStringLiteral("identityfile"))->setText(names(s.identityFiles));
            m_fields.value(QStringLiteral("proxyjump"))->setText(s.proxyJump.isEmpty() ? tr("none")
                                                                                       : displayName(s.proxyJump));
            QString known = names(s.userKnownHostsFiles);
            if (!s.hostKeyAlias.isEmpty())
                known += tr("\n(keys recorded as %1)").arg(displayName(s.hostKeyAlias));
            m_fields.value(QStringLiteral("knownhosts"))->setText(known);
        });
}

void RemoteHostsPage::connectHost(const QString &host)
{
    if (host.isEmpty())
        return;
    HostRun &r = m_runs[host];
    r.retryAtMs = 0;  // a manual connect retries now
    startConnect(host, true);
}

void RemoteHostsPage::startConnect(const QString &host, bool manual)
{
    HostRun &r = m_runs[host];
    if (r.busyGeneration != 0)
        return;
    QString error;
    std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(host, &error);
    if (!conn) {
        setHostStatus(host, RemoteHostStatus{State::Failed, shortReason(SshError::InvalidHost), displayText(error), -1});
        return;
    }
    const quint64 gen = ++r.generation;
    r.busyGeneration = gen;
    r.manualAttempt = manual;
    if (r.autoRetry)
        setHostStatus(host, RemoteHostStatus{State::Lost, m_model->status(host).reason, m_model->status(host).detail, 0});
    else
        setHostStatus(host, RemoteHostStatus{State::Connecting, {}, {}, -1});
    Q_EMIT statusChanged(tr("Connecting to %1…").arg(displayName(host)), true);
    auto ask = std::make_shared<GuiAskPass>(this, host);
    m_askPasses.removeIf([](const std::weak_ptr<GuiAskPass> &w) { return w.expired(); });
    m_askPasses << ask;
    runTask(
        this,
        [conn, ask](TaskControl &) {
            ConnectOutcome o;
            o.ok = conn->connect(30000, ask.get());
            o.error = conn->error();
            o.text = conn->errorText();
            if (o.error == SshError::HostKeyChanged) {
                SshResolved resolved;
                QString ignored;
                if (resolveSshHost(SshClientConfig::fromSettings(), conn->host(), &resolved, &ignored)) {
                    o.keyName = knownHostsName(resolved);
                    o.keyFile = resolved.userKnownHostsFiles.value(0);
                }
            }
            ask->close();
            return o;
        },
        [this, host, gen](const ConnectOutcome &o) { onConnectFinished(host, gen, o); });
    updateActions();
}

void RemoteHostsPage::onConnectFinished(const QString &host, quint64 generation, const ConnectOutcome &o)
{
    HostRun &r = m_runs[host];
    if (r.busyGeneration == generation)
        r.busyGeneration = 0;
    if (r.generation != generation) {
        updateActions();
        return;
    }
    const bool manual = r.manualAttempt;
    if (o.ok) {
        const bool wasLost = r.autoRetry;
        r.attempt = 0;
        r.autoRetry = false;
        r.retryAtMs = 0;
        setHostStatus(host, RemoteHostStatus{State::Connected, {}, {}, -1});
        Q_EMIT statusChanged(tr("Connected to %1.").arg(displayName(host)), false);
        const auto then = std::exchange(r.then, {});
        for (const auto &fn : then)
            fn();
        updateActions();
        if (wasLost)
            Q_EMIT hostReconnected(host);
        return;
    }
    const QString detail = displayText(o.text);
    if (o.error == SshError::HostKeyUnknown && manual) {
        askHostKey(host);  // what waits for the connection still waits
        return;
    }
    r.then.clear();
    if (o.error == SshError::HostKeyChanged) {
        r.autoRetry = false;
        setHostStatus(host, RemoteHostStatus{State::Failed, shortReason(o.error), detail, -1});
        Q_EMIT statusChanged(tr("The host key of %1 changed: Ingot refused to connect.").arg(displayName(host)), false);
        showHostKeyChanged(this, host, o.keyName, o.keyFile, o.text);
        return;
    }
    if (r.autoRetry && isTransient(o.error)) {
        scheduleRetry(host, detail);
        return;
    }
    r.autoRetry = false;
    r.retryAtMs = 0;
    setHostStatus(host, RemoteHostStatus{State::Failed, shortReason(o.error), detail, -1});
    Q_EMIT statusChanged(tr("Could not connect to %1: %2").arg(displayName(host), shortReason(o.error)), false);
}

// First contact: learn the key off the UI thread, show it, and only on "Trust and connect" record it and connect.
void RemoteHostsPage::askHostKey(const QString &host)
{
    std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(host);
    if (!conn)
        return;
    HostRun &r = m_runs[host];
    const quint64 gen = ++r.generation;
    r.busyGeneration = gen;
    setHostStatus(host, RemoteHostStatus{State::Connecting, {}, {}, -1});
    Q_EMIT statusChanged(tr("Asking %1 for its host key…").arg(displayName(host)), true);
    runTask(
        this,
        [conn](TaskControl &) {
            std::pair<HostKeyOffer, QString> out;
            if (!conn->scanHostKey(&out.first, &out.second) && out.second.isEmpty())
                out.second = tr("The host did not present a key.");
            return out;
        },
        [this, host, gen, conn](const std::pair<HostKeyOffer, QString> &scan) {
            HostRun &r = m_runs[host];
            if (r.busyGeneration == gen)
                r.busyGeneration = 0;
            if (r.generation != gen)
                return updateActions();
            if (!scan.second.isEmpty()) {
                r.then.clear();
                setHostStatus(host, RemoteHostStatus{State::Failed, shortReason(SshError::HostKeyUnknown),
                                                     displayText(scan.second), -1});
                Q_EMIT statusChanged(tr("Could not read the host key of %1.").arg(displayName(host)), false);
                return;
            }
            Q_EMIT statusChanged(tr("Check the host key of %1.").arg(displayName(host)), false);
            auto *dlg = new HostKeyDialog(host, scan.first, this);
            dlg->setAttribute(Qt::WA_DeleteOnClose);
            connect(dlg, &QDialog::finished, this, [this, host, gen, conn, offer = scan.first](int result) {
                HostRun &r = m_runs[host];
                if (r.generation != gen)
                    return;
                if (result != QDialog::Accepted) {
                    r.then.clear();
                    setHostStatus(host, RemoteHostStatus{State::Failed, shortReason(SshError::HostKeyUnknown),
                                                         tr("You did not trust the key %1 presented; nothing was "
                                                            "recorded. Connect again to see it again.")
                                                             .arg(displayName(host)),
                                                         -1});
                    Q_EMIT statusChanged(tr("Not connected to %1: its host key was not trusted.").arg(displayName(host)),
                                         false);
                    return;
                }
                const quint64 acceptGen = ++r.generation;
                r.busyGeneration = acceptGen;
                runTask(
                    this,
                    [conn, offer](TaskControl &) {
                        QString error;
                        conn->acceptHostKey(offer, &error);
                        return error;
                    },
                    [this, host, acceptGen](const QString &error) {
                        HostRun &r = m_runs[host];
                        if (r.busyGeneration == acceptGen)
                            r.busyGeneration = 0;
                        if (r.generation != acceptGen)
                            return updateActions();
                        if (!error.isEmpty()) {
                            r.then.clear();
                            setHostStatus(host, RemoteHostStatus{State::Failed, tr("host key not recorded"),
                                                                 displayText(error), -1});
                            return;
                        }
                        startConnect(host, true);
                    });
            });
            dlg->open();
        });
}

void RemoteHostsPage::scheduleRetry(const QString &host, const QString &detail)
{
    HostRun &r = m_runs[host];
    r.autoRetry = true;
    const int delay = m_delays.at(qMin(r.attempt, int(m_delays.size()) - 1));
    ++r.attempt;
    r.retryAtMs = QDateTime::currentMSecsSinceEpoch() + qint64(delay) * 1000;
    setHostStatus(host, RemoteHostStatus{State::Lost, tr("connection lost"), detail, delay});
    Q_EMIT statusChanged(tr("The connection to %1 was lost; retrying in %n s.", nullptr, delay).arg(displayName(host)),
                         false);
    if (!m_ticker->isActive())
        m_ticker->start();
}

void RemoteHostsPage::connectionLost(const QString &host)
{
    HostRun &r = m_runs[host];
    r.attempt = 0;
    scheduleRetry(host, tr("The master connection to %1 is gone (the network dropped, the machine slept, or the "
                           "server restarted). Ingot reconnects by itself; Retry now tries at once.")
                           .arg(displayName(host)));
}

// Counts down the waits of dropped connections and reconnects when one is over.
void RemoteHostsPage::tick()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    bool waiting = false;
    for (const QString &host : m_model->hostNames()) {
        auto it = m_runs.find(host);
        if (it == m_runs.end() || !it->autoRetry || it->retryAtMs == 0 || it->busyGeneration != 0)
            continue;
        const int left = int(std::ceil(double(it->retryAtMs - now) / 1000.0));
        if (left <= 0) {
            it->retryAtMs = 0;
            startConnect(host, false);
            continue;
        }
        waiting = true;
        RemoteHostStatus st = m_model->status(host);
        st.retryInSeconds = left;
        setHostStatus(host, st);
    }
    if (!waiting)
        m_ticker->stop();
}

void RemoteHostsPage::checkConnections()
{
    if (m_checking.isRunning())
        return;
    struct Probe {
        QString host;
        quint64 generation;
        std::shared_ptr<SshConnection> conn;
        bool running = false;
    };
    QVector<Probe> probes;
    for (const QString &host : m_model->hostNames()) {
        const State s = m_model->status(host).state;
        if (isBusy(host) || !(s == State::Connected || (m_firstCheck && s == State::NotConnected)))
            continue;
        if (auto conn = RemoteHosts::instance().connection(host))
            probes.push_back(Probe{host, m_runs[host].generation, std::move(conn)});
    }
    m_firstCheck = false;
    if (probes.isEmpty())
        return;
    m_checking = runTask(
        this,
        [probes](TaskControl &control) mutable {
            for (Probe &p : probes)
                if (!control.isStopped())
                    p.running = p.conn->check();  // ssh -O check: the local master socket only
            return probes;
        },
        [this](const QVector<Probe> &done) {
            for (const Probe &p : done) {
                const auto it = m_runs.constFind(p.host);
                if (it == m_runs.cend() || it->generation != p.generation || it->busyGeneration != 0)
                    continue;
                const State s = m_model->status(p.host).state;
                if (p.running && s != State::Connected)
                    setHostStatus(p.host, RemoteHostStatus{State::Connected, {}, {}, -1});
                else if (!p.running && s == State::Connected)
                    connectionLost(p.host);
            }
        });
}

void RemoteHostsPage::noteConnectionTrouble(const QString &host)
{
    if (m_model->status(host).state != State::Connected || isBusy(host))
        return;
    std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(host);
    if (!conn)
        return;
    const quint64 gen = m_runs[host].generation;
    runTask(this, [conn](TaskControl &) { return conn->check(); },
            [this, host, gen](bool running) {
                const auto it = m_runs.constFind(host);
                if (it == m_runs.cend() || it->generation != gen || it->busyGeneration != 0)
                    return;
                if (!running && m_model->status(host).state == State::Connected)
                    connectionLost(host);
            });
}

void RemoteHostsPage::disconnectHost(const QString &host)
{
    if (host.isEmpty() || isBusy(host))
        return;
    std::shared_ptr<SshConnection> conn = RemoteHosts::instance().connection(host);
    if (!conn)
        return;
    HostRun &r = m_runs[host];
    r.autoRetry = false;
    r.retryAtMs = 0;
    r.then.clear();
    const quint64 gen = ++r.generation;
    r.busyGeneration = gen;
    updateActions();
    Q_EMIT statusChanged(tr("Disconnecting from %1…").arg(displayName(host)), true);
    runTask(this, [conn](TaskControl &) { conn->close(); },
            [this, host, gen] {
                HostRun &r = m_runs[host];
                if (r.busyGeneration == gen)
                    r.busyGeneration = 0;
                if (r.generation == gen) {
                    setHostStatus(host, RemoteHostStatus{State::NotConnected, {}, {}, -1});
                    Q_EMIT statusChanged(tr("Disconnected from %1.").arg(displayName(host)), false);
                }
                updateActions();
            });
}

void RemoteHostsPage::whenConnected(const QString &host, std::function<void()> fn)
{
    if (m_model->status(host).state == State::Connected && !isBusy(host)) {
        fn();
        return;
    }
    HostRun &r = m_runs[host];
    r.then.push_back(std::move(fn));
    if (r.busyGeneration == 0) {
        r.retryAtMs = 0;
        startConnect(host, true);
    }
}

void RemoteHostsPage::openCompileCache(const QString &host)
{
    if (host.isEmpty())
        return;
    whenConnected(host, [this, host] { resolveCache(host); });
}

void RemoteHostsPage::failCacheLookup(const QString &host, const QString &text)
{
    m_cacheTexts.insert(host, text);
    if (host == currentHost())
        m_cacheText->setText(text);
    Q_EMIT statusChanged(text, false);
    updateActions();
    noteConnectionTrouble(host);
}

void RemoteHostsPage::resolveCache(const QString &host)
{
    QString error;
    std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(host, &error);
    if (!shell)
        return failCacheLookup(host, displayText(error));
    Q_EMIT statusChanged(tr("Asking %1 where its compile cache is…").arg(displayName(host)), true);
    m_cacheLookup.discard();
    m_cacheLookup = runTask(
        this,
        [shell](TaskControl &) {
            std::tuple<bool, CacheLocation, QString> out;
            std::get<0>(out) = CacheLocation::resolveOn(*shell, &std::get<1>(out), &std::get<2>(out));
            return out;
        },
        [this, host](const std::tuple<bool, CacheLocation, QString> &r) {
            const auto &[ok, loc, why] = r;
            if (!ok)
                return failCacheLookup(host, tr("Could not ask %1 where its compile cache is: %2")
                                                 .arg(displayName(host), displayText(why)));
            const QString text = displayText(loc.explanation);  // which rule won there (and --no_cache, if set)
            if (!loc.isSupported())
                return failCacheLookup(host, displayText(loc.unsupportedReason()) + QStringLiteral("\n\n") + text);
            m_cacheTexts.insert(host, tr("%1\n\nCache: %2").arg(text, displayName(loc.path)));
            m_lastFolder.insert(host, loc.path);
            showDetails();
            updateActions();
            Q_EMIT statusChanged(tr("Opening %1:%2…").arg(displayName(host), displayName(loc.path)), false);
            Q_EMIT openCacheRequested(sshStoreLocation(host, loc.path), text);
        });
    updateActions();
}

void RemoteHostsPage::showOpenFolderDialog()
{
    const QString host = currentHost();
    if (host.isEmpty())
        return;
    auto *dlg = new QInputDialog(this);
    dlg->setObjectName(QStringLiteral("openFolderDialog"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Open a folder on %1").arg(displayName(host)));
    dlg->setLabelText(tr("A compile cache folder on %1 (an absolute path, or ~/…):").arg(displayName(host)));
    dlg->setTextValue(m_lastFolder.value(host, CacheLocation::defaultPath()));
    dlg->resize(480, dlg->sizeHint().height());
    connect(dlg, &QInputDialog::textValueSelected, this,
            [this, host](const QString &path) { openFolderOnHost(host, path.trimmed()); });
    dlg->open();
}

void RemoteHostsPage::openFolderOnHost(const QString &host, const QString &path)
{
    if (host.isEmpty() || path.isEmpty())
        return;
    whenConnected(host, [this, host, path] { checkFolder(host, path); });
}

void RemoteHostsPage::checkFolder(const QString &host, const QString &path)
{
    QString error;
    std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(host, &error);
    if (!shell)
        return failCacheLookup(host, displayText(error));
    Q_EMIT statusChanged(tr("Looking for %1 on %2…").arg(displayName(path), displayName(host)), true);
    m_cacheLookup.discard();
    m_cacheLookup = runTask(
        this,
        [shell, path](TaskControl &) { return shell->run(kFolderScript, {nameToBytes(path)}, {}, 1 << 16, 30000); },
        [this, host, path](const ShellResult &r) {
            const QString p = displayName(path), h = displayName(host);
            if (!r.ran())
                return failCacheLookup(host, tr("Could not look for %1 on %2: %3").arg(p, h, displayText(r.error)));
            QString problem;
            switch (r.exitCode) {
            case 0: break;
            case 3: problem = tr("There is no folder %1 on %2. Check the path, or open the compile cache the Neuron "
                                 "tools there use.").arg(p, h); break;
            case 4: problem = tr("%1 is not an absolute path: start it with / (or ~/ for the home folder on %2).")
                                  .arg(p, h); break;
            case 5: problem = tr("%1 on %2 is not a folder.").arg(p, h); break;
            case 6: problem = tr("%1 on %2 cannot be entered: permission denied for the user Ingot logs in as.")
                                  .arg(p, h); break;
            default: problem = tr("Could not check %1 on %2 (exit status %3).").arg(p, h).arg(r.exitCode); break;
            }
            if (!problem.isEmpty()) {
                failCacheLookup(host, problem);
                auto *box = new QMessageBox(QMessageBox::Warning, tr("Open a folder on %1").arg(h), problem,
                                            QMessageBox::Close, this);
                box->setObjectName(QStringLiteral("folderProblem"));
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
                return;
            }
            const QString real = nameFromBytes(r.out);
            const QString text = tr("A folder you chose on %1.").arg(h);
            m_cacheTexts.insert(host, tr("%1\n\nCache: %2").arg(text, displayName(real)));
            m_lastFolder.insert(host, real);
            showDetails();
            updateActions();
            Q_EMIT statusChanged(tr("Opening %1:%2…").arg(h, displayName(real)), false);
            Q_EMIT openCacheRequested(sshStoreLocation(host, real), text);
        });
    updateActions();
}

}  // namespace ingot
