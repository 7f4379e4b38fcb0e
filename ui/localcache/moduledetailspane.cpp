#include "ui/localcache/moduledetailspane.h"

#include "ui/common/flagtext.h"

#include "models/common/tones.h"
#include "services/cache/compilerversion.h"
#include "services/cache/classify.h"
#include "services/cache/explain.h"
#include "services/hub/secretstore.h"
#include "services/neuron/knowncaches.h"
#include "services/stores/cachestore.h"
#include "services/stores/storefactory.h"
#include "models/cache/modulefilesmodel.h"
#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

namespace {
struct Loaded {
    QString flags;
    QString log;
    QString hlo;
    QHash<QString, QString> targets;
};

QString formatFlags(const QByteArray &raw, bool json)
{
    if (json) {
        QJsonParseError e{};
        const QJsonDocument doc = QJsonDocument::fromJson(raw, &e);
        if (e.error == QJsonParseError::NoError && doc.isArray()) {
            QStringList flags;
            for (const auto &v : doc.array())
                flags << v.toString();
            return flags.isEmpty() ? QCoreApplication::translate("ingot::ModuleDetailsPane", "(no flags: the compiler defaults)")
                                   : flags.join(QLatin1Char('\n'));
        }
        return QCoreApplication::translate("ingot::ModuleDetailsPane", "(compile_flags.json is not a JSON list; raw text follows)\n") +
               QString::fromUtf8(raw);
    }
    const QString t = QString::fromUtf8(raw).trimmed();
    return t.isEmpty() ? QCoreApplication::translate("ingot::ModuleDetailsPane", "(no flags: the compiler defaults)")
                       : t.split(QLatin1Char(' '), Qt::SkipEmptyParts).join(QLatin1Char('\n'));
}
}  // namespace

ModuleDetailsPane::ModuleDetailsPane(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_pathLabel(new QLabel(this))
    , m_warnings(new QLabel(this))
    , m_copy(new QPushButton(tr("Copy path"), this))
    , m_open(new QPushButton(tr("Open folder"), this))
    , m_files(new QTableView(this))
    , m_filesModel(new ModuleFilesModel(this))
    , m_flagsBox(new QGroupBox(tr("Compile flags"), this))
    , m_flags(new QPlainTextEdit(this))
    , m_logBox(new QGroupBox(tr("Failure log (model.log, last lines)"), this))
    , m_log(new QPlainTextEdit(this))
    , m_hloBox(new QGroupBox(tr("HLO graph (model.hlo_module.pb)"), this))
    , m_hlo(new QPlainTextEdit(this))
    , m_whyBox(new QGroupBox(tr("Why would a job compile it?"), this))
    , m_explain(new QPushButton(tr("Explain"), this))
    , m_why(new QLabel(this))
    , m_whyAction(new QPushButton(this))
{
    QFont tf = m_title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.15);
    m_title->setFont(tf);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);  // names are shown, never interpreted as markup
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setWordWrap(true);
    m_pathLabel->setWordWrap(true);
    m_pathLabel->setTextFormat(Qt::PlainText);
    m_pathLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    m_warnings->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name()));
    m_copy->setIcon(style()->standardIcon(QStyle::SP_FileIcon));
    m_copy->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    m_copy->setToolTip(tr("Copy the full path (Ctrl+Shift+C)"));
    m_open->setIcon(style()->standardIcon(QStyle::SP_DirOpenIcon));

    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_filesModel);
    proxy->setSortRole(ModuleFilesModel::SortRole);
    m_files->setModel(proxy);
    m_files->setSortingEnabled(true);
    m_files->sortByColumn(ModuleFilesModel::NameColumn, Qt::AscendingOrder);
    m_files->verticalHeader()->hide();
    m_files->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_files->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_files->setWordWrap(false);
    m_files->verticalHeader()->setDefaultSectionSize(m_files->fontMetrics().height() + 6);
    m_files->horizontalHeader()->setStretchLastSection(true);
    for (int c : {int(ModuleFilesModel::NameColumn), int(ModuleFilesModel::SizeColumn), int(ModuleFilesModel::ModifiedColumn)})
        m_files->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_files->setAlternatingRowColors(true);

    for (QPlainTextEdit *e : {m_flags, m_log, m_hlo}) {
        e->setReadOnly(true);
        e->setLineWrapMode(QPlainTextEdit::NoWrap);
        e->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    }
    m_flags->setMaximumHeight(90);
    // Heights that keep a few lines readable: with the HLO and the answer below, the pane scrolls rather than
    // squeezing the log to a line.
    m_flags->setMinimumHeight(2 * m_flags->fontMetrics().lineSpacing() + 12);
    m_log->setMinimumHeight(6 * m_log->fontMetrics().lineSpacing() + 12);
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // compiler errors are long single lines
    auto *fl = new QVBoxLayout(m_flagsBox);
    fl->addWidget(m_flags);
    auto *ll = new QVBoxLayout(m_logBox);
    ll->addWidget(m_log);
    m_hlo->setMinimumHeight(110);
    m_hlo->setLineWrapMode(QPlainTextEdit::WidgetWidth);  // replica groups are long: no sideways scrolling
    auto *hl = new QVBoxLayout(m_hloBox);
    hl->addWidget(m_hlo);
    m_why->setWordWrap(true);
    m_why->setTextFormat(Qt::PlainText);  // paths and flags are shown, never interpreted as markup
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    copyFlagsAsWritten(m_why);
    m_explain->setToolTip(tr("Looks in this cache and every cache Ingot knows (the folders added here, this machine's "
                             "cache, the Hub cache repos) for this entry, its graph with other flags or another compiler"));
    auto *wl = new QVBoxLayout(m_whyBox);
    auto *wr = new QHBoxLayout;
    wr->addWidget(m_explain);
    wr->addStretch();
    wl->addLayout(wr);
    wl->addWidget(m_why);
    auto *ar = new QHBoxLayout;
    ar->addWidget(m_whyAction);
    ar->addStretch();
    wl->addLayout(ar);
    m_whyAction->hide();

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_open);
    buttons->addStretch();

    auto *col = new QVBoxLayout(this);
    col->addWidget(m_title);
    col->addWidget(m_state);
    col->addWidget(m_pathLabel);
    col->addLayout(buttons);
    col->addWidget(m_warnings);
    col->addWidget(m_files);
    // Top to bottom in the order they are made (flags, the failure log, the HLO, why): the layout test reads them so.
    col->addWidget(m_flagsBox);
    col->addWidget(m_logBox, 2);
    col->addWidget(m_hloBox, 1);
    col->addWidget(m_whyBox);
    // Without a log, what is shown stays at the top (the pane fills the height of its scroll area).
    col->addStretch(0);

    connect(m_copy, &QPushButton::clicked, this, &ModuleDetailsPane::copyPath);
    connect(m_open, &QPushButton::clicked, this, &ModuleDetailsPane::openFolder);
    connect(m_explain, &QPushButton::clicked, this, &ModuleDetailsPane::explain);
    clear();
}

ModuleDetailsPane::~ModuleDetailsPane() = default;

void ModuleDetailsPane::clear()
{
    m_load.discard();
    m_explaining.discard();
    m_key.clear();
    m_path.clear();
    m_title->setText(tr("Select an entry to see its files, flags and log."));
    m_state->clear();
    m_pathLabel->clear();
    m_warnings->hide();
    m_filesModel->clear();
    m_flags->clear();
    m_log->clear();
    m_flagsBox->hide();
    m_logBox->hide();
    m_hloBox->hide();
    m_whyBox->hide();
    m_files->hide();
    m_copy->setEnabled(false);
    m_open->setEnabled(false);
}

void ModuleDetailsPane::showSummary(const QString &title, const QString &text, const QString &path)
{
    clear();
    m_title->setText(displayName(title));
    m_state->setText(text);
    m_path = path;
    m_pathLabel->setText(displayName(path));
    m_copy->setEnabled(!path.isEmpty());
    m_open->setEnabled(!path.isEmpty() && QFileInfo(path).isDir());
}

void ModuleDetailsPane::showModule(const CacheModule &m)
{
    m_load.discard();  // a late answer for the previous entry is dropped
    m_explaining.discard();
    m_key = m.key();
    // Making a store does no I/O: it only knows where the cache is and how to show paths in it.
    std::unique_ptr<CacheStore> probe = m_location.isValid() ? makeStore(m_location) : nullptr;
    m_path = probe ? probe->fullPath(m.key()) : m.key();
    m_title->setText(displayName(m.name));
    QString why;
    if (m.isModule())
        classifyModule(m.files, CompilerVersion::parse(m.version).writesDoneMarker(), &why);
    const QString color = stateColor(m.state).name();
    const QString label = entryStateLabel(m);
    m_state->setText(QStringLiteral("<span style='color:%1'>&#9679;</span> <b>%2</b> &mdash; %3<br>%4")
                         .arg(color, label.toHtmlEscaped(), why.toHtmlEscaped(),
                              m.linkedSize > 0 ? tr("%1 in %n file(s), last used %2; %3 linked from elsewhere", nullptr, m.fileCount())
                                                     .arg(formatBytes(m.size), formatDateTime(m.lastUsedMs), formatBytes(m.linkedSize))
                                               : tr("%1 in %n file(s), last used %2", nullptr, m.fileCount())
                                                     .arg(formatBytes(m.size), formatDateTime(m.lastUsedMs))));
    m_pathLabel->setText(displayName(m_path));
    m_copy->setEnabled(true);
    m_open->setEnabled(probe && probe->isLocal() && (m.isModule() || m.kind == EntryKind::UnknownDir));
    m_warnings->setVisible(!m.warnings.isEmpty());
    m_warnings->setText(QStringLiteral("⚠ ") + m.warnings.join(QStringLiteral("\n⚠ ")));
    m_filesModel->setModule(m);
    fitFilesTable();
    m_files->setVisible(m.isModule());
    m_flags->clear();
    m_log->clear();
    m_flagsBox->setVisible(false);
    m_logBox->setVisible(false);
    m_hloBox->setVisible(false);
    m_hlo->clear();
    m_why->setText(tr("Press Explain to see whether a job looking for this entry finds it, and if not, why."));
    m_whyAction->hide();
    m_explain->setEnabled(true);
    m_whyBox->setVisible(m.isModule() && ModuleKey::parse(m.key()).has_value());
    if (!probe || !m.isModule())
        return;

    // Flags, the log tail and link targets are read off the UI thread (the cache may be on a slow disk).
    QString flagsName, logName;
    QStringList links;
    for (const CacheFile &f : m.files) {
        if (f.name == QLatin1String("compile_flags.json") || (f.name == QLatin1String("compile_flags.txt") && flagsName.isEmpty()))
            flagsName = f.name;
        if (f.name == QLatin1String("model.log"))
            logName = f.name;
        if (f.is(CacheFile::Symlink))
            links << f.name;
    }
    const QString key = m.key();
    const StoreLocation location = m_location;
    const CacheModule copy = m;
    const bool hasHlo = !hloFileOf([&] {
        QStringList names;
        for (const CacheFile &f : m.files)
            names << f.name;
        return names;
    }()).isEmpty();
    // The listing the entry came from, where the store can share it: opening that lists nothing again.
    std::shared_ptr<CacheStore> listed = m_listedStore ? m_listedStore() : nullptr;
    m_load = runTask(this, [location, listed, key, flagsName, logName, links, copy, hasHlo](TaskControl &) {
        Loaded out;
        QString error;
        std::shared_ptr<CacheStore> store = listed ? listed : std::shared_ptr<CacheStore>(makeStore(location, &error));
        if (!store || !store->open(&error)) {
            out.flags = error;
            return out;
        }
        QByteArray raw;
        if (!flagsName.isEmpty()) {
            if (store->readFile(key + QLatin1Char('/') + flagsName, 64 * 1024, false, &raw, &error))
                out.flags = formatFlags(raw, flagsName.endsWith(QLatin1String(".json")));
            else
                out.flags = error;
        }
        if (!logName.isEmpty()) {
            if (store->readFile(key + QLatin1Char('/') + logName, 16 * 1024, true, &raw, &error)) {
                QStringList lines = QString::fromUtf8(raw).split(QLatin1Char('\n'));
                if (lines.size() > 60)
                    lines = lines.mid(lines.size() - 60);
                out.log = lines.join(QLatin1Char('\n')).trimmed();
            } else {
                out.log = error;
            }
        }
        for (const QString &l : links)
            out.targets.insert(l, store->linkTarget(key + QLatin1Char('/') + l));
        if (hasHlo) {
            const std::optional<HloSummary> h = readEntryHlo(*store, copy, &error);
            out.hlo = h ? hloSummaryLines(*h).join(QLatin1Char('\n')) : tr("The HLO cannot be read: %1").arg(error);
        }
        return out;
    }, [this, copy, flagsName, logName, hasHlo](Loaded l) {
        m_flagsBox->setVisible(!flagsName.isEmpty());
        m_flagsBox->setTitle(tr("Compile flags (%1)").arg(flagsName));
        m_flags->setPlainText(l.flags);
        m_logBox->setVisible(!logName.isEmpty());
        m_log->setPlainText(l.log);
        m_hloBox->setVisible(hasHlo);
        m_hlo->setPlainText(l.hlo);
        m_log->verticalScrollBar()->setValue(m_log->verticalScrollBar()->maximum());
        if (!l.targets.isEmpty())
            m_filesModel->setModule(copy, l.targets);
        Q_EMIT detailsLoaded();
    });
}

// The files table as tall as its rows, up to eight (then it scrolls), with room for its horizontal scroll bar: the
// flags and the log under it keep the rest.
void ModuleDetailsPane::fitFilesTable()
{
    const int rows = std::clamp(m_filesModel->rowCount(), 1, 8);
    const int scrollBar = m_files->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_files);
    m_files->setFixedHeight(m_files->horizontalHeader()->sizeHint().height() + rows * m_files->verticalHeader()->defaultSectionSize()
                            + 2 * m_files->frameWidth() + scrollBar);
}

QString ModuleDetailsPane::flagsText() const
{
    return m_flags->toPlainText();
}

QString ModuleDetailsPane::logText() const
{
    return m_log->toPlainText();
}

QString ModuleDetailsPane::hloText() const
{
    return m_hlo->toPlainText();
}

QString ModuleDetailsPane::explanationText() const
{
    return flagsAsWritten(m_why->text());
}

// The step the answer offers, one click away (whoever acts on it previews it first).
void ModuleDetailsPane::showExplanationAction(const std::optional<Explanation> &e)
{
    m_whyAction->disconnect();
    m_whyAction->hide();
    m_whyAction->setToolTip(QString());
    if (!e)
        return;
    const QString key = e->key.key();
    if (e->verdict == Verdict::Blocked && e->state == ModuleState::Failed) {
        m_whyAction->setText(tr("Delete this failed entry…"));
        connect(m_whyAction, &QPushButton::clicked, this, [this, key] { Q_EMIT deleteFailedRequested(key); });
    } else if (e->verdict == Verdict::Blocked && !e->lockMayBeLive) {
        m_whyAction->setText(tr("Clear stale locks…"));
        connect(m_whyAction, &QPushButton::clicked, this, &ModuleDetailsPane::clearLocksRequested);
    } else if (e->verdict == Verdict::OtherCache) {
        // A long path is cut in its middle: the button never widens the pane (the whole name is its tooltip).
        m_whyAction->setText(tr("Bring it here from %1")
                                 .arg(m_whyAction->fontMetrics().elidedText(displayName(e->otherCache), Qt::ElideMiddle, 260)));
        m_whyAction->setToolTip(displayName(e->otherCache));
        connect(m_whyAction, &QPushButton::clicked, this, [this, from = e->otherCache, key] { Q_EMIT fetchRequested(from, key); });
    } else {
        return;
    }
    m_whyAction->show();
}

void ModuleDetailsPane::explain()
{
    const std::optional<ModuleKey> key = ModuleKey::parse(m_key);
    if (!key || !m_location.isValid())
        return;
    m_explain->setEnabled(false);
    m_why->setText(tr("Looking in %1 and the other caches Ingot knows…").arg(displayName(m_location.display())));
    const StoreLocation where = m_location;
    struct Answer {
        QString text;
        std::optional<Explanation> explanation;
    };
    m_explaining = runTask(this, [key = *key, where](TaskControl &) {
        Answer a;
        QString error;
        a.explanation = explainIn(key, where, QString(), knownOtherCaches(where, defaultSecretStore()), {}, &error);
        if (!a.explanation) {
            a.text = tr("Cannot explain: %1").arg(error);
            return a;
        }
        const Explanation &e = *a.explanation;
        QStringList lines{displayName(e.headline())};
        for (const QString &l : e.evidence())
            lines << QStringLiteral("  • ") + displayName(l);
        if (!e.fix().isEmpty())
            lines << tr("What to do: %1").arg(displayName(e.fix()));
        a.text = lines.join(QLatin1Char('\n'));
        return a;
    }, [this](const Answer &a) {
        m_why->setText(keepFlagsWhole(a.text));  // "--" and "enable-saturate-infinity" on two lines otherwise
        m_explain->setEnabled(true);
        showExplanationAction(a.explanation);
        Q_EMIT explained();
    });
}

void ModuleDetailsPane::copyPath()
{
    if (!m_path.isEmpty())
        QApplication::clipboard()->setText(m_path);
}

void ModuleDetailsPane::openFolder()
{
    if (!m_path.isEmpty())
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_path));
}

}  // namespace ingot
