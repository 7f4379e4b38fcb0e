#include "ui/fleet/fleetpage.h"

#include "models/fleet/fleetmodel.h"
#include "ui/fleet/policydialog.h"
#include "ui/fleet/fleetgcpanel.h"
#include "services/cache/cachepolicy.h"
#include "services/fleet/gclog.h"
#include "services/hub/secretstore.h"
#include "services/util/format.h"
#include "services/util/names.h"
#include "ui/common/keyboard.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace ingot {

namespace {
constexpr int kRefreshMs = 5 * 60 * 1000;
}

FleetPage::FleetPage(QWidget *parent)
    : QWidget(parent), m_model(new FleetModel(this)), m_proxy(new QSortFilterProxyModel(this)), m_timer(new QTimer(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FleetModel::SortRole);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &FleetPage::refreshChanged);
    buildUi();
    reloadPolicies();
    updateActions();
}

FleetPage::~FleetPage()
{
    m_task.discard();
    m_logTask.discard();
}

void FleetPage::buildUi()
{
    m_refresh = new QAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Refresh"), this);
    m_refresh->setShortcut(QKeySequence::Refresh);
    m_refresh->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_refresh->setToolTip(tr("Read every place again (F5)"));
    connect(m_refresh, &QAction::triggered, this, &FleetPage::refresh);
    addAction(m_refresh);
    m_open = new QAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open"), this);
    m_open->setToolTip(tr("Show the selected place on its own page: a cache on the Local cache page, a Hub repo on the Hub page"));
    connect(m_open, &QAction::triggered, this, &FleetPage::openCurrent);

    auto *buttons = new QHBoxLayout;
    for (QAction *a : {m_refresh, m_open}) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
    }
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    buttons->addSpacing(12);
    buttons->addWidget(m_summary, 1);

    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setAccessibleName(tr("Places"));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // the places' own order until a header is clicked
    m_view->header()->setStretchLastSection(true);
    m_view->setTextElideMode(Qt::ElideMiddle);  // a long path keeps its start and its end
    m_view->setColumnWidth(FleetModel::PlaceColumn, 280);
    m_view->setColumnWidth(FleetModel::KindColumn, 70);
    m_view->setColumnWidth(FleetModel::SizeColumn, 75);
    for (int c : {FleetModel::EntriesColumn, FleetModel::FailedColumn, FleetModel::LockedColumn})
        m_view->setColumnWidth(c, 58);
    m_view->setColumnWidth(FleetModel::CompilersColumn, 180);
    m_view->setColumnWidth(FleetModel::LastUsedColumn, 85);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    addContextMenuShortcut(m_view);
    m_view->addAction(m_open);
    m_view->addAction(m_refresh);
    connect(m_view, &QTreeView::activated, this, &FleetPage::openCurrent);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &FleetPage::updateActions);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(buttons);
    topLayout->addWidget(m_view, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(buildPolicies());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto *col = new QVBoxLayout(this);
    col->addWidget(split, 1);
}

QWidget *FleetPage::buildPolicies()
{
    auto *box = new QGroupBox(tr("Cache policies"), this);
    m_policies = new QComboBox(box);
    m_policies->setAccessibleName(tr("Policy"));
    m_policies->setMinimumContentsLength(16);
    m_policyText = new QLabel(box);
    m_policyText->setTextFormat(Qt::PlainText);
    m_policyText->setWordWrap(true);
    m_lastRun = new QLabel(box);
    m_lastRun->setTextFormat(Qt::PlainText);
    m_lastRun->setWordWrap(true);
    connect(m_policies, &QComboBox::currentIndexChanged, this, &FleetPage::showPolicy);
    m_newPolicy = new QAction(tr("&New…"), this);
    m_newPolicy->setToolTip(tr("A new cache policy: what each cache keeps (as ingot-cli cache policy set)"));
    connect(m_newPolicy, &QAction::triggered, this, [this] { editPolicy(true); });
    m_editPolicy = new QAction(tr("&Edit…"), this);
    m_editPolicy->setToolTip(tr("Change the chosen policy"));
    connect(m_editPolicy, &QAction::triggered, this, [this] { editPolicy(false); });
    auto *row = new QHBoxLayout;
    auto *label = new QLabel(tr("&Policy:"), box);
    label->setBuddy(m_policies);
    row->addWidget(label);
    row->addWidget(m_policies);
    for (QAction *a : {m_newPolicy, m_editPolicy}) {
        auto *b = new QToolButton(box);
        b->setDefaultAction(a);
        row->addWidget(b);
    }
    row->addWidget(m_policyText, 1);
    auto *lay = new QVBoxLayout(box);
    lay->addLayout(row);
    lay->addWidget(m_lastRun);
    m_gc = new FleetGcPanel([this] { return m_policies->currentText(); }, box);
    lay->addWidget(m_gc, 1);
    connect(m_policies, &QComboBox::currentIndexChanged, m_gc, &FleetGcPanel::policyChanged);
    connect(m_gc, &FleetGcPanel::statusChanged, this, &FleetPage::statusChanged);
    connect(m_gc, &FleetGcPanel::applied, this, [this] {
        reloadPolicies();  // the run's line
        refresh();         // the places' figures after it
    });
    return box;
}

void FleetPage::setRefreshIntervalMs(int ms)
{
    m_timer->setInterval(ms);
}

void FleetPage::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (e->spontaneous())
        return;
    m_timer->start();
    reloadPolicies();
    if (!m_shownOnce) {
        m_shownOnce = true;  // the places are read only once someone looks at them
        refresh();
    }
}

void FleetPage::hideEvent(QHideEvent *e)
{
    QWidget::hideEvent(e);
    if (!e->spontaneous())
        m_timer->stop();
}

void FleetPage::refresh()
{
    read(true);
}

void FleetPage::refreshChanged()
{
    read(false);
}

void FleetPage::read(bool everything)
{
    m_task.discard();
    m_shownOnce = true;
    if (!m_options.keychain)
        m_options.keychain = defaultSecretStore();
    QSet<QString> keep;  // Hub repos read recently: their rows stay as they are
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int r = 0; r < m_model->placeCount() && !everything; ++r) {
        const FleetSummary *s = m_model->summary(r);
        if (s && s->isRead() && s->place.kind == FleetPlace::Kind::Hub && now - s->readAtMs < hubRereadMs())
            keep << s->place.id;
    }
    Q_EMIT statusChanged(tr("Reading the places Ingot knows…"), true);
    // The list of places reads settings and the ssh config, and a host's read waits on its connection: all off the
    // UI thread. Each place's start and end reach the table as they happen; these closures are only ever called
    // there, by the task's receiver, while this page lives.
    auto known = [this](const QVector<FleetPlace> &places) { placesKnown(places); };
    auto started = [this](const QString &id) {
        m_model->setReading(m_model->rowOf(id), true);
        updateSummary();
    };
    auto finished = [this](const FleetSummary &s) { placeRead(s); };
    m_task = runTask(
        this,
        [options = m_options, keep, known, started, finished](TaskControl &c) {
            const QVector<FleetPlace> places = knownFleetPlaces();
            c.post([known, places] { known(places); });
            QVector<FleetPlace> toRead;
            for (const FleetPlace &p : places)
                if (!keep.contains(p.id))
                    toRead << p;
            FleetReadEvents events;
            events.started = [&c, started, toRead](int i) { c.post([started, id = toRead.at(i).id] { started(id); }); };
            events.finished = [&c, finished](int, const FleetSummary &s) { c.post([finished, s] { finished(s); }); };
            summarizeFleet(toRead, options, events, c.stopFlag());
        },
        [this] { readDone(); });
    updateActions();
}

void FleetPage::placesKnown(const QVector<FleetPlace> &places)
{
    const QString current = currentPlace() ? currentPlace()->id : QString();
    m_model->setNow(QDateTime::currentMSecsSinceEpoch());
    m_model->setPlaces(places);
    if (!current.isEmpty())
        selectPlace(current);
    updateSummary();
}

void FleetPage::placeRead(const FleetSummary &summary)
{
    m_model->setSummary(m_model->rowOf(summary.place.id), summary);
    updateSummary();
    updateActions();
}

void FleetPage::readDone()
{
    for (int r = 0; r < m_model->placeCount(); ++r)
        m_model->setReading(r, false);
    updateSummary();
    updateActions();
    Q_EMIT statusChanged(m_summary->text(), false);
    Q_EMIT refreshed();
}

void FleetPage::updateSummary()
{
    int read = 0, reading = 0, unread = 0, entries = 0;
    qint64 bytes = 0;
    for (int r = 0; r < m_model->placeCount(); ++r) {
        const FleetSummary *s = m_model->summary(r);
        if (m_model->isReading(r))
            ++reading;
        else if (s && s->isRead()) {
            ++read;
            bytes += s->bytes;
            entries += s->entries;
        } else if (s)
            ++unread;
    }
    QString text = tr("%n place(s)", nullptr, m_model->placeCount());
    if (read)
        text += tr(" · %1 in %n entries", nullptr, entries).arg(formatBytes(bytes));
    if (reading)
        text += tr(" · %n reading", nullptr, reading);
    if (unread)
        text += tr(" · %n not read", nullptr, unread);
    m_summary->setText(text);
}

void FleetPage::updateActions()
{
    const FleetPlace *p = currentPlace();
    m_open->setEnabled(p != nullptr);
}

const FleetPlace *FleetPage::currentPlace() const
{
    const QModelIndex i = m_proxy->mapToSource(m_view->currentIndex());
    return i.isValid() ? &m_model->place(i.row()) : nullptr;
}

void FleetPage::selectPlace(const QString &placeId)
{
    const int row = m_model->rowOf(placeId);
    if (row < 0)
        return;
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i);
}

void FleetPage::openCurrent()
{
    if (const FleetPlace *p = currentPlace())
        Q_EMIT openPlaceRequested(*p);
}

void FleetPage::reloadPolicies()
{
    const QString chosen = m_policies->currentText();
    const QSignalBlocker block(m_policies);
    m_policies->clear();
    for (const CachePolicy &p : savedPolicies())
        m_policies->addItem(p.name);
    m_policies->setCurrentIndex(std::max(0, m_policies->findText(chosen)));
    m_policies->setEnabled(m_policies->count() > 0);
    m_editPolicy->setEnabled(m_policies->count() > 0);
    if (m_gc && m_policies->currentText() != chosen)
        m_gc->policyChanged();
    showPolicy();
    // The gc log (up to its last 8 MiB) is read off the UI thread; a later read replaces an earlier one's answer.
    m_logTask.discard();
    m_logTask = runTask(
        this,
        [](TaskControl &) {
            QString error;
            const QVector<GcRun> runs = readGcRuns(1, &error);
            return qMakePair(runs, error);
        },
        [this](const QPair<QVector<GcRun>, QString> &r) {
            const QVector<GcRun> &runs = r.first;
            if (!r.second.isEmpty())
                m_lastRun->setText(tr("The log of policy runs cannot be read: %1").arg(r.second));
            else if (runs.isEmpty())
                m_lastRun->setText(tr("No policy has run yet."));
            else
                m_lastRun->setText(tr("Last run: %1, policy %2 (%3): %4.")
                                       .arg(formatDateTime(runs.first().finishedMs), displayName(runs.first().policy),
                                            displayName(runs.first().trigger), runs.first().summary()));
            Q_EMIT lastRunRead();
        });
}

PolicyDialog *FleetPage::editPolicy(bool newOne)
{
    CachePolicy p;
    if (!newOne && !findPolicy(m_policies->currentText(), &p))
        return nullptr;
    auto *dialog = new PolicyDialog(p, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        CachePolicy saved;
        dialog->policy(&saved);
        reloadPolicies();
        m_policies->setCurrentIndex(m_policies->findText(saved.name));
    });
    dialog->open();
    return dialog;
}

void FleetPage::showPolicy()
{
    CachePolicy p;
    if (m_policies->count() == 0)
        m_policyText->setText(tr("No policy saved yet: ingot-cli cache policy set NAME --max-size 200GB --unused-days 30 --failed"));
    else if (findPolicy(m_policies->currentText(), &p))
        m_policyText->setText(p.summary());
    else
        m_policyText->clear();
}

}  // namespace ingot
