#include "ui/checkpoint/consolidatewizard.h"

#include "services/util/appsettings.h"
#include "services/util/task.h"
#include "services/util/units.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStorageInfo>
#include <QUrl>
#include <QVBoxLayout>
#include <QWizardPage>

namespace ingot {

namespace {
// A page whose Next button follows a predicate; refresh() re-asks it.
class Page final : public QWizardPage
{
public:
    std::function<bool()> complete;
    bool isComplete() const override { return complete ? complete() : true; }
    void refresh() { Q_EMIT completeChanged(); }
};

Page *pageOf(QWizard *w, int id)
{
    return static_cast<Page *>(w->page(id));
}
}  // namespace

ConsolidateWizard::ConsolidateWizard(const QString &folder, QWidget *parent)
    : QWizard(parent)
    , m_folder(new QLineEdit(this))
    , m_recent(new QComboBox(this))
    , m_detected(new QLabel(this))
    , m_checkpoints(new QComboBox(this))
    , m_problems(new QListWidget(this))
    , m_checkStatus(new QLabel(this))
    , m_format(new QComboBox(this))
    , m_shardGb(new QDoubleSpinBox(this))
    , m_output(new QLineEdit(this))
    , m_space(new QLabel(this))
    , m_verify(new QCheckBox(tr("Verify: read the output back and check every tensor against the shards"), this))
    , m_overwrite(new QCheckBox(tr("Replace the output folder if it exists"), this))
    , m_progress(new QProgressBar(this))
    , m_runStatus(new QLabel(this))
    , m_cancelRun(new QPushButton(tr("Cancel"), this))
    , m_summary(new QLabel(this))
{
    setWindowTitle(tr("Consolidate a checkpoint"));
    setAcceptDrops(true);
    resize(760, 540);
    setOption(QWizard::NoBackButtonOnLastPage);

    // 1. Choose.
    auto *choose = new Page;
    choose->setTitle(tr("Choose the checkpoint"));
    choose->setSubTitle(tr("The training output folder, a checkpoint-N folder, or the shards folder. You can also drop a folder here."));
    auto *browse = new QPushButton(tr("Browse…"), choose);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Checkpoint folder"), m_folder->text());
        if (!d.isEmpty())
            setFolder(d);
    });
    m_recent->addItem(tr("Recent folders…"));
    m_recent->addItems(recentFolders());
    connect(m_recent, &QComboBox::activated, this, [this](int i) {
        if (i > 0)
            setFolder(m_recent->itemText(i));
    });
    connect(m_folder, &QLineEdit::editingFinished, this, &ConsolidateWizard::detect);
    m_detected->setWordWrap(true);
    m_detected->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *row = new QHBoxLayout;
    row->addWidget(m_folder, 1);
    row->addWidget(browse);
    auto *cl = new QVBoxLayout(choose);
    cl->addLayout(row);
    cl->addWidget(m_recent);
    cl->addWidget(m_detected);
    cl->addWidget(new QLabel(tr("Checkpoint:"), choose));
    cl->addWidget(m_checkpoints);
    cl->addStretch();
    choose->complete = [this] { return chosen() != nullptr; };
    connect(m_checkpoints, &QComboBox::currentIndexChanged, this, [this] {
        m_checked = false;
        pageOf(this, ChoosePage)->refresh();
    });
    setPage(ChoosePage, choose);

    // 2. Check.
    auto *checkPage = new Page;
    checkPage->setTitle(tr("Check"));
    checkPage->setSubTitle(tr("Every shard is read and compared before anything is written."));
    auto *kl = new QVBoxLayout(checkPage);
    m_checkStatus->setWordWrap(true);
    kl->addWidget(m_checkStatus);
    kl->addWidget(m_problems, 1);
    checkPage->complete = [this] { return m_checked && m_problems->count() == 0; };
    setPage(CheckPage, checkPage);

    // 3. Options.
    auto *options = new Page;
    options->setTitle(tr("Options"));
    m_format->addItem(tr("safetensors"), QStringLiteral("safetensors"));
    m_format->addItem(tr("PyTorch (pytorch_model.bin)"), QStringLiteral("pytorch"));
    m_shardGb->setRange(0.001, 1000);
    m_shardGb->setDecimals(3);
    m_shardGb->setValue(5);
    m_shardGb->setSuffix(tr(" GB"));
    m_verify->setChecked(true);
    auto *outBrowse = new QPushButton(tr("Browse…"), options);
    connect(outBrowse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Output folder"), QFileInfo(m_output->text()).absolutePath());
        if (!d.isEmpty())
            m_output->setText(d + QStringLiteral("/consolidated"));
    });
    connect(m_output, &QLineEdit::textChanged, this, &ConsolidateWizard::updateFreeSpace);
    connect(m_overwrite, &QCheckBox::toggled, this, &ConsolidateWizard::updateFreeSpace);
    auto *orow = new QHBoxLayout;
    orow->addWidget(m_output, 1);
    orow->addWidget(outBrowse);
    m_space->setWordWrap(true);
    auto *form = new QFormLayout(options);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Split files above:"), m_shardGb);
    form->addRow(tr("Output folder:"), orow);
    form->addRow(QString(), m_space);
    form->addRow(QString(), m_overwrite);
    form->addRow(QString(), m_verify);
    options->complete = [this] {
        const QFileInfo out(m_output->text());
        if (m_output->text().isEmpty())
            return false;
        if (out.exists() && !m_overwrite->isChecked() && !QDir(m_output->text()).isEmpty())
            return false;
        qint64 bytes = 0;
        for (const auto &e : m_plan.entries)
            bytes += e.bytes;
        QFileInfo existing(out.absolutePath());
        while (!existing.exists() && existing.absolutePath() != existing.absoluteFilePath())
            existing = QFileInfo(existing.absolutePath());
        return QStorageInfo(existing.absoluteFilePath()).bytesAvailable() > bytes;
    };
    setPage(OptionsPage, options);

    // 4. Run.
    auto *runPage = new Page;
    runPage->setTitle(tr("Consolidating"));
    auto *rl = new QVBoxLayout(runPage);
    m_runStatus->setWordWrap(true);
    rl->addWidget(m_progress);
    rl->addWidget(m_runStatus);
    rl->addWidget(m_cancelRun, 0, Qt::AlignLeft);
    rl->addStretch();
    connect(m_cancelRun, &QPushButton::clicked, this, [this] {
        if (m_cancel)
            m_cancel->store(true);
        m_runStatus->setText(tr("Stopping; nothing will be left behind…"));
    });
    runPage->complete = [this] { return !m_running && m_report.ok(); };
    runPage->setCommitPage(true);
    setPage(RunPage, runPage);

    // 5. Summary.
    auto *summary = new Page;
    summary->setTitle(tr("Done"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *open = new QPushButton(tr("Open folder"), summary);
    auto *copy = new QPushButton(tr("Copy path"), summary);
    connect(open, &QPushButton::clicked, this, [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_output->text())); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(QFileInfo(m_output->text()).absoluteFilePath()); });
    auto *sl = new QVBoxLayout(summary);
    sl->addWidget(m_summary);
    auto *brow = new QHBoxLayout;
    brow->addWidget(open);
    brow->addWidget(copy);
    brow->addStretch();
    sl->addLayout(brow);
    sl->addStretch();
    setPage(SummaryPage, summary);

    if (!folder.isEmpty())
        setFolder(folder);
}

ConsolidateWizard::~ConsolidateWizard()
{
    if (m_cancel)
        m_cancel->store(true);
}

QStringList ConsolidateWizard::recentFolders()
{
    return AppSettings::recentCheckpoints();
}

const CheckpointCandidate *ConsolidateWizard::chosen() const
{
    const int i = m_checkpoints->currentIndex();
    return i >= 0 && i < m_found.size() ? &m_found[i] : nullptr;
}

void ConsolidateWizard::setFolder(const QString &folder)
{
    m_folder->setText(folder);
    detect();
}

void ConsolidateWizard::dragEnterEvent(QDragEnterEvent *e)
{
    if (e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void ConsolidateWizard::dropEvent(QDropEvent *e)
{
    const QList<QUrl> urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        setFolder(urls.first().toLocalFile());
}

void ConsolidateWizard::detect()
{
    const QString folder = m_folder->text().trimmed();
    if (folder.isEmpty())
        return;
    const quint64 gen = ++m_detectGen;
    m_detected->setText(tr("Looking for checkpoints in %1…").arg(folder));
    runTask(this, [folder](TaskControl &) {
        QString error;
        auto found = findCheckpoints(folder, &error);
        return qMakePair(found, error);
    }, [this, gen, folder](QPair<QVector<CheckpointCandidate>, QString> r) {
        if (gen != m_detectGen)
            return;
        m_found = r.first;
        m_checkpoints->blockSignals(true);
        m_checkpoints->clear();
        for (const auto &c : std::as_const(m_found))
            m_checkpoints->addItem(tr("%1 — tp=%2 pp=%3, %4%5").arg(c.label).arg(c.tpSize).arg(c.ppSize).arg(formatBytes(c.bytes),
                                                                     c.complete ? QString() : tr(" (incomplete)")));
        const CheckpointCandidate *def = pickDefault(m_found);
        m_checkpoints->setCurrentIndex(def ? int(def - m_found.constData()) : (m_found.isEmpty() ? -1 : 0));
        m_checkpoints->blockSignals(false);
        m_checked = false;
        if (m_found.isEmpty()) {
            m_detected->setText(r.second);
        } else {
            const CheckpointCandidate &c = m_found.first();
            m_detected->setText(tr("Found %n checkpoint(s). Layout: %1.", nullptr, int(m_found.size())).arg(layoutName(c.layout)));
            AppSettings::addRecentCheckpoint(folder);
            if (m_output->text().isEmpty())
                m_output->setText(QFileInfo(folder).absoluteFilePath() + QStringLiteral("/consolidated"));
        }
        pageOf(this, ChoosePage)->refresh();
        Q_EMIT detectionFinished(int(m_found.size()));
    });
}

void ConsolidateWizard::initializePage(int id)
{
    if (id == CheckPage)
        check();
    else if (id == OptionsPage)
        updateFreeSpace();
    else if (id == RunPage)
        run();
    QWizard::initializePage(id);
}

bool ConsolidateWizard::validateCurrentPage()
{
    return !m_running && QWizard::validateCurrentPage();
}

void ConsolidateWizard::reject()
{
    if (m_running) {
        if (m_cancel)
            m_cancel->store(true);
        return;  // closes once the run has cleaned up
    }
    QWizard::reject();
}

void ConsolidateWizard::check()
{
    const CheckpointCandidate *c = chosen();
    if (!c)
        return;
    m_checked = false;
    m_problems->clear();
    m_checkStatus->setText(tr("Reading %n shard(s)…", nullptr, int(c->shards.size())));
    pageOf(this, CheckPage)->refresh();
    const CheckpointCandidate cand = *c;
    runTask(this, [cand](TaskControl &) { return planConsolidation(cand); }, [this](const ConsolidationPlan &plan) {
        m_plan = plan;
        m_problems->addItems(plan.problems);
        m_checked = true;
        m_checkStatus->setText(plan.ok()
                                   ? tr("No problems: %n tensors, %1 to write.", nullptr, int(plan.entries.size())).arg(formatBytes(plan.bytes()))
                                   : tr("%n problem(s): nothing can be written until they are fixed.", nullptr, int(plan.problems.size())));
        pageOf(this, CheckPage)->refresh();
        Q_EMIT checkFinished(int(plan.problems.size()));
    });
}

void ConsolidateWizard::updateFreeSpace()
{
    const qint64 bytes = m_plan.bytes();
    QFileInfo existing(QFileInfo(m_output->text()).absolutePath());
    while (!existing.exists() && existing.absolutePath() != existing.absoluteFilePath())
        existing = QFileInfo(existing.absolutePath());
    const qint64 free = QStorageInfo(existing.absoluteFilePath()).bytesAvailable();
    QString text = tr("Needs %1; %2 free there.").arg(formatBytes(bytes), formatBytes(free));
    if (free <= bytes)
        text += QLatin1Char(' ') + tr("Not enough space.");
    if (QFileInfo::exists(m_output->text()) && !QDir(m_output->text()).isEmpty() && !m_overwrite->isChecked())
        text += QLatin1Char(' ') + tr("The folder exists: allow replacing it, or choose another.");
    m_space->setText(text);
    pageOf(this, OptionsPage)->refresh();
}

void ConsolidateWizard::run()
{
    const CheckpointCandidate *c = chosen();
    if (!c)
        return;
    ConsolidateOptions o;
    o.output = m_output->text();
    o.maxShardBytes = qint64(m_shardGb->value() * 1e9);
    o.verify = m_verify->isChecked();
    o.overwrite = m_overwrite->isChecked();
    o.format = m_format->currentData().toString() == QLatin1String("pytorch") ? ConsolidateOptions::Format::PyTorch
                                                                               : ConsolidateOptions::Format::Safetensors;
    m_running = true;
    m_report = ConsolidateReport();
    m_cancel = std::make_shared<std::atomic_bool>(false);
    m_cancelRun->setEnabled(true);
    button(QWizard::BackButton)->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    pageOf(this, RunPage)->refresh();
    auto cancel = m_cancel;
    QPointer<ConsolidateWizard> self(this);
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    runTask(this, [plan = m_plan, o, cancel, self, timer](TaskControl &) {
        return consolidate(plan, o, [self, timer](const ConsolidateProgress &p) {
            const double secs = double(timer->elapsed()) / 1000.0;
            const double rate = secs > 0 ? double(p.bytesDone) / secs : 0;
            const int eta = rate > 0 ? int(double(p.bytesTotal - p.bytesDone) / rate) : 0;
            QMetaObject::invokeMethod(self, [self, p, eta] {
                if (!self)
                    return;
                self->m_progress->setValue(p.bytesTotal > 0 ? int(1000 * p.bytesDone / p.bytesTotal) : 1000);
                self->m_runStatus->setText(tr("%1 of %2 — %3 of %4 tensors — about %5 s left\n%6")
                                               .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal))
                                               .arg(p.tensorsDone).arg(p.tensorsTotal).arg(eta).arg(p.current));
                Q_EMIT self->progressed(p.tensorsDone, p.tensorsTotal);
            }, Qt::QueuedConnection);
        }, cancel.get());
    }, [this, o](ConsolidateReport rep) {
        m_report = rep;
        m_running = false;
        m_cancelRun->setEnabled(false);
        if (rep.cancelled) {
            m_runStatus->setText(tr("Cancelled. Nothing was written to %1.").arg(o.output));
            button(QWizard::BackButton)->setEnabled(true);
        } else if (!rep.ok()) {
            QStringList all = rep.problems + rep.verifyProblems;
            if (!rep.error.isEmpty())
                all << rep.error;
            m_runStatus->setText(tr("Failed, and nothing was left behind: %1").arg(all.join(QStringLiteral("; "))));
            button(QWizard::BackButton)->setEnabled(true);
        } else {
            m_progress->setValue(1000);
            m_runStatus->setText(tr("Finished."));
            QStringList lines;
            for (const QString &f : rep.files)
                lines << QStringLiteral("%1 &nbsp; <span style='color:gray'>%2</span>")
                             .arg(f.toHtmlEscaped(), formatBytes(QFileInfo(o.output + QLatin1Char('/') + f).size()));
            m_summary->setText(tr("<b>%1 tensors</b> (%2) written to <tt>%3</tt>:<br>%4<br><br>%5")
                                   .arg(rep.tensors).arg(formatBytes(rep.bytes), o.output.toHtmlEscaped(),
                                        lines.join(QStringLiteral("<br>")),
                                        o.verify ? (rep.verified ? tr("Verified: every tensor matches its shards.") : tr("Not verified."))
                                                 : tr("Verification was not asked for.")));
        }
        pageOf(this, RunPage)->refresh();
        Q_EMIT runFinished(rep.ok());
    });
}

}  // namespace ingot
