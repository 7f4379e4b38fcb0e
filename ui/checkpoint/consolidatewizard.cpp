#include "ui/checkpoint/consolidatewizard.h"

#include "services/util/appsettings.h"

#include <QAbstractButton>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QUrl>

namespace ingot {

ConsolidateWizard::ConsolidateWizard(const QString &folder, QWidget *parent)
    : QWizard(parent)
{
    setWindowTitle(tr("Consolidate a checkpoint"));
    setAcceptDrops(true);
    resize(980, 640);
    // One title style on every page: the header with a title and a subtitle (each page has both).
    setWizardStyle(QWizard::ModernStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    m_choose = new ChooseCheckpointPage(m_request);
    m_check = new ConsolidatePlanPage(m_request);
    m_options = new ConsolidateOptionsPage(m_request);
    m_run = new ConsolidateRunPage(m_request);
    m_summary = new ConsolidateSummaryPage;
    setPage(ChoosePage, m_choose);
    setPage(CheckPage, m_check);
    setPage(OptionsPage, m_options);
    setPage(RunPage, m_run);
    setPage(SummaryPage, m_summary);
    connectPages();
    // After QWizard's own handlers (connected by setPage()), which would open Back again.
    connect(this, &QWizard::currentIdChanged, this, &ConsolidateWizard::updateBackButton);
    for (int id : pageIds())
        connect(page(id), &QWizardPage::completeChanged, this, &ConsolidateWizard::updateBackButton);
    if (!folder.isEmpty())
        setFolder(folder);
}

ConsolidateWizard::~ConsolidateWizard() = default;

// Each page says what it found; the next step follows from it, and the signals tell the tests and the main window.
void ConsolidateWizard::connectPages()
{
    m_choose->detectionStarted = [this](const QString &folder) { Q_EMIT detectionStarted(folder); };
    m_choose->detectionFinished = [this](int found) {
        if (found > 0)
            m_options->proposeOutput();
        Q_EMIT detectionFinished(found);
    };
    m_choose->choiceChanged = [this] { m_check->forget(); };
    m_check->checkFinished = [this](int problems) { Q_EMIT checkFinished(problems); };
    m_options->outputChecked = [this](const QString &output) { Q_EMIT outputChecked(output); };
    m_options->reshardPlanned = [this](int problems) { Q_EMIT reshardPlanned(problems); };
    m_run->progressed = [this](int done, int total) { Q_EMIT progressed(done, total); };
    m_run->finished = [this] { runFinishedHere(); };
}

QStringList ConsolidateWizard::recentFolders()
{
    return AppSettings::recentCheckpoints();
}

void ConsolidateWizard::setFolder(const QString &folder)
{
    m_choose->setFolder(folder);
}

// A folder dropped on the first page chooses it; on the later ones it would change the checkpoint under them.
void ConsolidateWizard::dragEnterEvent(QDragEnterEvent *e)
{
    if (currentId() == ChoosePage && e->mimeData()->hasUrls())
        e->acceptProposedAction();
}

void ConsolidateWizard::dropEvent(QDropEvent *e)
{
    const QList<QUrl> urls = e->mimeData()->urls();
    if (currentId() == ChoosePage && !urls.isEmpty() && urls.first().isLocalFile())
        setFolder(urls.first().toLocalFile());
}

void ConsolidateWizard::reject()
{
    if (m_run->isRunning()) {
        m_closeWhenStopped = true;
        m_run->stop(true);
        button(QWizard::CancelButton)->setEnabled(false);
        return;  // closes once the run has cleaned up (runFinishedHere)
    }
    QWizard::reject();
}

void ConsolidateWizard::runFinishedHere()
{
    const ConsolidationResult &r = m_run->result();
    button(QWizard::CancelButton)->setEnabled(true);
    if (r.report.ok())
        m_summary->showResult(m_request, r, m_run->runMs());
    updateBackButton();
    Q_EMIT runFinished(r.report.ok());
    if (m_closeWhenStopped) {
        QWizard::reject();
        return;
    }
    if (m_run->hasRun() && currentId() == RunPage)
        next();
}

// Back is closed while a run writes, and for good once one has written its output; QWizard re-enables it whenever a
// page's completeness changes, so this follows every such change.
void ConsolidateWizard::updateBackButton()
{
    if (m_run->isRunning() || m_run->hasRun())
        button(QWizard::BackButton)->setEnabled(false);
}

}  // namespace ingot
