#include "ui/jobs/joblauncher.h"

#include "ui/jobs/slurmsection.h"

#include "models/common/tones.h"
#include "services/util/shellquote.h"

#include "services/jobs/jobservice.h"
#include "services/jobs/modelinfo.h"
#include "services/neuron/launchform.h"
#include "services/remote/remotehosts.h"
#include "services/util/names.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ingot {

namespace {

// The shortest text that reads back as the same double (what the backend's argparse gets, too).
QString numberText(double v)
{
    for (int prec = 1; prec <= 17; ++prec) {
        const QString t = QString::number(v, 'g', prec);
        if (t.toDouble() == v)
            return t;
    }
    return QString::number(v, 'g', 17);
}

QString num(qint64 n)
{
    return QLocale().toString(n);
}

}  // namespace

JobLauncher::JobLauncher(JobService *service, QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_form(new LaunchForm(service, this))
    , m_settle(new QTimer(this))
{
    m_settle->setSingleShot(true);
    m_settle->setInterval(kSettleMs);
    connect(m_settle, &QTimer::timeout, this, &JobLauncher::check);
    // Hosts added or removed on the Remote hosts page, or another ssh config: "Run on" lists them (once shown).
    connect(RemoteHostsSignals::instance(), &RemoteHostsSignals::hostsChanged, this, [this] {
        if (m_started)
            fillHosts();
    });

    auto *form = new QWidget;
    auto *formCol = new QVBoxLayout(form);
    formCol->addWidget(buildWhatRuns());
    formCol->addWidget(buildModel());
    formCol->addWidget(buildParallelism());
    formCol->addWidget(buildBatch());
    formCol->addWidget(buildOptimisation());
    formCol->addWidget(buildSaving());
    formCol->addWidget(buildEnvironment());
    m_slurm = new SlurmSection;
    connect(m_slurm, &SlurmSection::changed, this, &JobLauncher::onChanged);
    connect(m_slurm, &QGroupBox::toggled, this, [this] {
        askSlurm();
        updateEnabled();
    });
    formCol->addWidget(m_slurm);
    formCol->addStretch(1);
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("launcherForm"));
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    form->setMinimumWidth(form->sizeHint().width());
    scroll->setMinimumWidth(form->sizeHint().width() + 20);

    // Presets above everything.
    m_presets = new QComboBox;
    m_presets->setMinimumContentsLength(18);
    m_presets->setToolTip(tr("Choosing a preset fills the form with its settings"));
    auto *savePresetButton = new QPushButton(tr("Save as preset…"));
    m_deletePreset = new QPushButton(tr("Delete preset"));
    connect(m_presets, &QComboBox::currentIndexChanged, this, &JobLauncher::applyPreset);
    connect(savePresetButton, &QPushButton::clicked, this, &JobLauncher::askPresetName);
    connect(m_deletePreset, &QPushButton::clicked, this, [this] {
        const QString name = m_presets->currentText();
        if (m_presets->currentIndex() > 0
            && QMessageBox::question(this, tr("Delete preset"), tr("Delete the preset \u201c%1\u201d? Jobs launched "
                                                                   "with it are not affected.").arg(name))
                   == QMessageBox::Yes)
            deletePreset(name);
    });
    auto *presetRow = new QHBoxLayout;
    presetRow->addWidget(new QLabel(tr("Preset:")));
    presetRow->addWidget(m_presets);
    presetRow->addWidget(savePresetButton);
    presetRow->addWidget(m_deletePreset);
    presetRow->addStretch(1);

    auto *middle = new QHBoxLayout;
    middle->addWidget(scroll, 1);
    middle->addWidget(buildSidePanel(), 1);

    auto *col = new QVBoxLayout(this);
    col->addLayout(presetRow);
    col->addLayout(middle, 1);

    reloadPresets(QString());
    setSpec(JobSpec{});

    connect(m_form, &LaunchForm::launched, this, [this](const QString &id) {
        m_seedStop->hide();
        m_launchError->setText(tr("Launched %1. The next launch gets a fresh job folder.").arg(id));
        m_launchError->setStyleSheet(QString());
        invalidate();  // a new id and port for the next launch
        Q_EMIT launched(id);
    });
    connect(m_form, &LaunchForm::launchFailed, this, [this](const QString &error) {
        m_seedStop->hide();
        m_launchError->setText(tr("The job did not start: %1").arg(error));
        m_launchError->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
        invalidate();
    });
    connect(m_form, &LaunchForm::pythonsFound, this, [this](const QString &error) {
        m_runOnInfo->setText(error.isEmpty() ? QString() : displayText(error));
        fillPythons(m_form->pythons());
        invalidate();
    });
    connect(m_form, &LaunchForm::checked, this, &JobLauncher::showCheck);
    connect(m_form, &LaunchForm::previewChanged, this, [this] {
        showProblems(m_form->problems());  // the disk may have changed since the check
        showPreview();
    });
    connect(m_form, &LaunchForm::cacheChecked, this, [this] {
        showCache();
        Q_EMIT cacheChecked();
    });
    connect(m_form, &LaunchForm::engineProposed, this, [this] {
        showEngineProposal();
        if (m_form->engineProposal().onNode)
            check();  // the plan's notes take the node's answer (probeJobPython remembers it)
        Q_EMIT engineProposed();
    });
    connect(m_form, &LaunchForm::priorGraphsChecked, this, [this] {
        showPriorGraphs();
        Q_EMIT priorGraphsChecked();
    });
    connect(m_form, &LaunchForm::seedChecked, this, [this] {
        m_seedNote->setText(m_form->seedText());
        updateLaunchButton();
        Q_EMIT seedChecked();
    });
    connect(m_form, &LaunchForm::seedProgress, this, [this](const QString &text) {
        m_seedNote->setText(text);
        updateLaunchButton();  // Stop bringing graphs, while they are copied
    });
    connect(m_seedBox, &QCheckBox::toggled, this, &JobLauncher::onChanged);
    connect(m_seedPlaces, &QLineEdit::textChanged, this, &JobLauncher::onChanged);

    updatePythonInfo();
}

void JobLauncher::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (m_started)
        return;
    m_started = true;
    fillHosts();
    detectPythonsThere();
    askSlurm();
    invalidate();
}

QString JobLauncher::where() const
{
    const QString w = m_runOn->currentData().toString();
    return w.isEmpty() ? QStringLiteral("local") : w;
}

QStringList JobLauncher::nodes() const
{
    if (where() == QLatin1String("local"))
        return {};
    QStringList n{where()};
    if (m_nnodes->value() > 1 && !m_slurm->isChecked())  // a Slurm job's nodes are the scheduler's
        for (const QString &h : m_otherNodes->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            n << h.trimmed();
    return n;
}

void JobLauncher::fillHosts()
{
    const QString current = where();
    {
        const QSignalBlocker block(m_runOn);
        m_runOn->clear();
        m_runOn->addItem(tr("This machine"), QStringLiteral("local"));
        if (m_service->hasRemoteHosts())
            for (const RemoteHostEntry &h : RemoteHosts::instance().hosts())
                m_runOn->addItem(displayName(h.name), h.name);
        const int at = m_runOn->findData(current);
        m_runOn->setCurrentIndex(at < 0 ? 0 : at);
    }
    if (where() != current)  // the host chosen went: the form runs here now, and is checked again
        onRunOnChanged();
}

void JobLauncher::onRunOnChanged()
{
    if (m_started)
        detectPythonsThere();
    askSlurm();
    updateEnabled();
    onChanged();
}

void JobLauncher::askSlurm()
{
    const QString w = where();
    if (!m_started || !m_slurm->isChecked() || m_slurmAsked == w)
        return;
    m_slurmAsked = w;
    m_slurm->showAsking(w == QLatin1String("local") ? m_service->runner().describe() : w);
    m_slurmTask.discard();
    m_slurmTask = m_service->slurmInfoOn(w, QString(), [this, w](const SlurmClusterState &state, const QString &error) {
        if (w == where())
            m_slurm->showCluster(state, error);
    });
}

void JobLauncher::detectPythonsThere()
{
    const QString w = where();
    m_runOnInfo->setText(w == QLatin1String("local") ? QString() : tr("Connecting to %1…").arg(displayName(w)));
    m_form->detectPythons(w);
}

JobLauncher::~JobLauncher()
{
    m_slurmTask.discard();
}

// ---- the form <-> the launch form's input ----

JobSpec JobLauncher::spec() const
{
    JobSpec s;
    bool ok;
    const auto number = [&ok](const QLineEdit *e) { return LaunchForm::readNumber(e->text(), &ok); };
    s.name = m_name->text().trimmed();
    s.program = JobProgram(m_programGroup->checkedId());
    s.script = m_scriptEdit->text();
    s.module = m_moduleEdit->text().trimmed();
    splitShellWords(m_extraArgs->text(), &s.extraArgs);
    s.passSettings = m_passSettings->isChecked();
    s.nprocPerNode = m_nproc->value();
    s.nnodes = m_nnodes->value();
    s.slurm = m_slurm->settings();
    s.modelPath = m_folderModel->isChecked() ? m_modelPath->text().trimmed() : QString();
    s.configName = m_configName->currentData().toString();
    s.trainFile = m_sampleData->isChecked() ? QString() : m_trainFile->text().trimmed();
    s.perDeviceBatch = m_batch->value();
    s.gradientAccumulation = m_accumulation->value();
    s.blockSize = m_blockSize->value();
    s.learningRate = number(m_learningRate);
    s.weightDecay = number(m_weightDecay);
    s.warmupSteps = m_warmup->value();
    s.maxSteps = m_bySteps->isChecked() ? m_maxSteps->value() : -1;
    s.epochs = number(m_epochs);
    s.maxGradNorm = number(m_maxGradNorm);
    s.bf16 = m_bf16->isChecked();
    s.zero1 = m_zero1->isChecked();
    s.fsdp = m_fsdp->isChecked();
    s.torchCompile = m_torchCompile->isChecked();
    s.engine = m_engine->currentData().toString();
    s.tensorParallel = m_tp->value();
    s.pipelineParallel = m_pp->value();
    s.microbatches = m_microbatches->value();
    s.disableSequenceParallel = !m_sequenceParallel->isChecked();
    s.disableEmbeddingParallel = !m_embeddingParallel->isChecked();
    s.loggingSteps = m_loggingSteps->value();
    s.saveSteps = m_saveSteps->value();
    s.saveTotalLimit = m_saveTotalLimit->value();
    s.outputDir = m_outputDir->text().trimmed();
    s.resumeFrom = m_resumeFrom->text().trimmed();
    if (!s.resumeFrom.isEmpty() && s.resumeFrom == m_resumedFromPath)
        s.resumedFromJob = m_resumedFromJob;
    s.seed = m_seed->value();
    s.device = m_device->currentData().toString();
    s.python = m_python->currentData(PathRole).toString();
    s.neuronCcFlags = m_ccFlags->text().trimmed();
    s.compileCacheUrl = m_cacheUrl->text().trimmed();
    s.precompile = m_precompile->isChecked() && !m_slurm->settings().enabled;  // a Slurm job's is in its section
    for (int row = 0; row < m_env->rowCount(); ++row) {
        const QTableWidgetItem *k = m_env->item(row, 0);
        const QTableWidgetItem *v = m_env->item(row, 1);
        const QString key = k ? k->text().trimmed() : QString();
        if (!key.isEmpty())
            s.env.append({key, v ? v->text() : QString()});
    }
    return s;
}

LaunchInput JobLauncher::input() const
{
    LaunchInput in;
    in.spec = spec();
    in.where = where();
    in.nodes = nodes();
    in.modelFolderChosen = m_folderModel->isChecked();
    in.dataChosen = !m_sampleData->isChecked();
    in.dataFolder = m_folderData->isChecked();
    in.seed = m_seedBox->isChecked();
    in.seedPlaces = m_seedPlaces->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList words;
    in.argsUnclosed = !splitShellWords(m_extraArgs->text(), &words);
    const std::pair<const char *, QLineEdit *> numbers[] = {{"learning_rate", m_learningRate},
                                                            {"weight_decay", m_weightDecay},
                                                            {"num_train_epochs", m_epochs},
                                                            {"max_grad_norm", m_maxGradNorm}};
    for (const auto &[flag, edit] : numbers) {
        bool ok;
        LaunchForm::readNumber(edit->text(), &ok);
        if (!ok)
            in.unreadNumbers << QLatin1String(flag);
    }
    return in;
}

void JobLauncher::setSpec(const JobSpec &s)
{
    m_applying = true;
    m_name->setText(s.name);
    if (QAbstractButton *b = m_programGroup->button(int(s.program)))
        b->setChecked(true);
    m_scriptEdit->setText(s.script);
    m_moduleEdit->setText(s.module);
    m_extraArgs->setText(joinShellWords(s.extraArgs));
    m_passSettings->setChecked(s.passSettings);
    m_nproc->setValue(s.nprocPerNode);
    m_nnodes->setValue(s.nnodes);
    m_slurm->setSettings(s.slurm);
    (s.modelPath.isEmpty() ? m_builtinModel : m_folderModel)->setChecked(true);
    m_modelPath->setText(s.modelPath);
    int config = m_configName->findData(s.configName);
    if (config < 0) {
        m_configName->addItem(s.configName, s.configName);
        config = m_configName->count() - 1;
    }
    m_configName->setCurrentIndex(config);
    (s.trainFile.isEmpty() ? m_sampleData : (m_folderData->isChecked() ? m_folderData : m_fileData))->setChecked(true);
    m_trainFile->setText(s.trainFile);
    m_batch->setValue(s.perDeviceBatch);
    m_accumulation->setValue(s.gradientAccumulation);
    m_blockSize->setValue(s.blockSize);
    m_learningRate->setText(numberText(s.learningRate));
    m_weightDecay->setText(numberText(s.weightDecay));
    m_warmup->setValue(s.warmupSteps);
    (s.maxSteps == -1 ? m_byEpochs : m_bySteps)->setChecked(true);
    if (s.maxSteps != -1)
        m_maxSteps->setValue(s.maxSteps);
    else if (m_maxSteps->value() == 0)
        m_maxSteps->setValue(1000);
    m_epochs->setText(numberText(s.epochs));
    m_maxGradNorm->setText(numberText(s.maxGradNorm));
    m_bf16->setChecked(s.bf16);
    m_zero1->setChecked(s.zero1);
    m_fsdp->setChecked(s.fsdp);
    m_torchCompile->setChecked(s.torchCompile);
    int engine = m_engine->findData(s.engine);
    if (engine < 0) {  // a value the backend refuses is shown, and refused by the check
        m_engine->addItem(s.engine, s.engine);
        engine = m_engine->count() - 1;
    }
    m_engine->setCurrentIndex(engine);
    m_tp->setValue(s.tensorParallel);
    m_pp->setValue(s.pipelineParallel);
    m_microbatches->setValue(s.microbatches);
    m_sequenceParallel->setChecked(!s.disableSequenceParallel);
    m_embeddingParallel->setChecked(!s.disableEmbeddingParallel);
    m_loggingSteps->setValue(s.loggingSteps);
    m_saveSteps->setValue(s.saveSteps);
    m_saveTotalLimit->setValue(s.saveTotalLimit);
    m_outputDir->setText(s.outputDir);
    m_resumeFrom->setText(s.resumeFrom);
    m_resumedFromJob = s.resumedFromJob;
    m_resumedFromPath = s.resumeFrom;
    m_seed->setValue(s.seed);
    int device = m_device->findData(s.device);
    if (device < 0) {
        m_device->addItem(s.device, s.device);
        device = m_device->count() - 1;
    }
    m_device->setCurrentIndex(device);
    selectPython(s.python);
    m_ccFlags->setText(s.neuronCcFlags);
    m_cacheUrl->setText(s.compileCacheUrl);
    m_precompile->setChecked(s.precompile);
    m_env->setRowCount(0);
    for (const auto &kv : s.env) {
        const int row = m_env->rowCount();
        m_env->insertRow(row);
        m_env->setItem(row, 0, new QTableWidgetItem(kv.first));
        m_env->setItem(row, 1, new QTableWidgetItem(kv.second));
    }
    m_applying = false;
    m_slurmAsked.clear();  // Launch again, Resume: the cluster is asked afresh (its nodes and your queue have moved on)
    askSlurm();
    invalidate();
}

// ---- checking as you type ----

void JobLauncher::onChanged()
{
    if (!m_applying)
        invalidate();
}

void JobLauncher::invalidate()
{
    m_form->invalidate();
    updateEnabled();
    updateLaunchButton();
    m_preview->setEnabled(false);  // greyed until the plan for the current form arrives
    m_settle->start();
}

void JobLauncher::updateEnabled()
{
    const bool script = m_script->isChecked();
    const bool module = m_module->isChecked();
    m_scriptEdit->setEnabled(script);
    m_moduleEdit->setEnabled(module);
    m_extraArgs->setEnabled(script || module);
    m_passSettings->setEnabled(script || module);
    m_engine->setEnabled(!(script || module) || m_passSettings->isChecked());
    m_otherNodes->setEnabled(m_nnodes->value() > 1 && where() != QLatin1String("local") && !m_slurm->isChecked());
    m_configName->setEnabled(m_builtinModel->isChecked());
    m_modelPath->setEnabled(m_folderModel->isChecked());
    m_trainFile->setEnabled(!m_sampleData->isChecked());
    m_epochs->setEnabled(m_byEpochs->isChecked());
    m_maxSteps->setEnabled(m_bySteps->isChecked());
    m_saveTotalLimit->setEnabled(m_saveSteps->value() > 0);  // the final save goes into the output folder itself
    // The browse buttons follow their line edits.
    for (QLineEdit *e : {m_scriptEdit, m_modelPath, m_trainFile})
        for (QPushButton *b : e->parentWidget()->findChildren<QPushButton *>(Qt::FindDirectChildrenOnly))
            b->setEnabled(e->isEnabled());
}

void JobLauncher::check()
{
    if (!m_started)
        return;  // once shown (showEvent)
    const LaunchInput in = input();
    m_form->checkCache(in);
    showCache();
    m_form->checkPriorGraphs(in);
    showPriorGraphs();
    m_form->checkSeed(in);
    m_seedNote->setText(m_form->seedText());
    updateLaunchButton();
    m_form->proposeEngine(in);
    showEngineProposal();
    m_form->check(in);
}

void JobLauncher::showEngineProposal()
{
    const bool backendFlags = m_backend->isChecked() || m_passSettings->isChecked();
    m_engineProposal->setText(backendFlags ? m_form->engineProposal().text(m_engine->currentData().toString()) : QString());
    m_engineProposal->setVisible(backendFlags);
    const bool slurm = backendFlags && m_slurm->settings().enabled;
    m_askNode->setVisible(slurm);
    m_askNode->setEnabled(slurm && !m_form->isAskingEngine() && !m_form->engineProposal().onNode);
}

void JobLauncher::showNotes(const QVector<JobNote> &notes)
{
    QStringList lines;
    bool warning = false;
    for (const JobNote &n : notes) {
        lines << (n.warning ? tr("Warning: --%1: %2") : tr("Note: --%1: %2")).arg(n.field, n.message);
        warning = warning || n.warning;
    }
    m_notes->setText(lines.join(QLatin1Char('\n')));
    m_notes->setStyleSheet(warning ? QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name()) : QString());
    m_notes->setVisible(!lines.isEmpty());
}

void JobLauncher::showCheck()
{
    const LaunchCheck &c = m_form->lastCheck();
    if (c.trainIsDir && m_fileData->isChecked()) {
        m_applying = true;  // the same spec: only which picker Browse opens changes
        m_folderData->setChecked(true);
        m_applying = false;
    }
    showProblems(m_form->problems());
    showNotes(c.notes);
    showFigures(c, spec());
    showEngineProposal();
    Q_EMIT checked();
}

QString JobLauncher::problemText(const QString &field) const
{
    const QLabel *label = m_problemLabels.value(field);
    return label ? label->text() : QString();
}

void JobLauncher::showProblems(const QVector<JobProblem> &problems)
{
    QHash<QString, QStringList> byField;
    QStringList general;
    for (const JobProblem &p : problems) {
        if (m_problemLabels.contains(p.field))
            byField[p.field] << p.message;
        else
            general << p.field + QStringLiteral(": ") + p.message;
    }
    for (auto it = m_problemLabels.begin(); it != m_problemLabels.end(); ++it) {
        const QStringList messages = byField.value(it.key());
        QLabel *label = it.value();
        label->setText(messages.join(QLatin1Char('\n')));
        label->setVisible(!messages.isEmpty());
        // A wrapped label in a form row gets the height of its unwrapped text: ask for what wrapping needs.
        const int width = label->parentWidget() ? label->parentWidget()->width() : 0;
        label->setMinimumHeight(messages.isEmpty() || width <= 0 ? 0 : label->heightForWidth(width));
        QWidget *field = m_fields.value(it.key());
        if (!field)
            continue;
        if (messages.isEmpty()) {
            field->setPalette(QPalette());
        } else {
            QPalette pal = field->palette();
            pal.setColor(QPalette::Base, QColor(0xfd, 0xe7, 0xe9));
            pal.setColor(QPalette::Button, QColor(0xfd, 0xe7, 0xe9));
            pal.setColor(QPalette::Text, QColor(0x1a, 0x1a, 0x1a));  // on the pink, in the dark palette too
            pal.setColor(QPalette::ButtonText, QColor(0x1a, 0x1a, 0x1a));
            field->setPalette(pal);
        }
    }
    m_generalProblems->setText(general.join(QLatin1Char('\n')));
    m_generalProblems->setVisible(!general.isEmpty());
}

void JobLauncher::showFigures(const LaunchCheck &r, const JobSpec &s)
{
    // Precompile first, one rule in both places (a Slurm job's option is in the Slurm section): offered where the
    // Neuron SDK's tool is, else disabled with why beside it (a checked one stays enabled, so it can be unchecked).
    const QString why = precompileUnavailableReason(r.facts);
    m_precompile->setVisible(!s.slurm.enabled);
    m_precompile->setEnabled(why.isEmpty() || m_precompile->isChecked());
    m_precompileWhy->setText(why);
    m_precompileWhy->setVisible(!s.slurm.enabled && !why.isEmpty());
    if (why.isEmpty())
        m_precompile->setToolTip(tr("Runs first: %1 (the same command), then the training.").arg(displayName(r.facts.neuronParallelCompile)));
    m_slurm->setPrecompileUnavailable(why);
    const ModelInfo &model = r.facts.model;
    m_modelInfo->setText(model.known ? model.description : QString());
    const JobFigures &f = r.figures;
    QStringList rows;
    auto row = [&rows](const QString &name, const QString &value) {
        rows << QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td><b>%2</b></td></tr>").arg(name, value);
    };
    row(tr("Processes"), s.nnodes == 1 ? tr("%1 on one node").arg(num(f.worldSize))
                                       : tr("%1 (%2 per node \u00d7 %3 nodes)")
                                             .arg(num(f.worldSize), num(s.nprocPerNode), num(s.nnodes)));
    if (f.dataParallel == 0) {
        row(tr("Data-parallel size"), tr("\u2014 (tp \u00d7 pp = %1 does not divide %2)")
                                          .arg(num(qint64(s.tensorParallel) * s.pipelineParallel), num(f.worldSize)));
    } else {
        row(tr("Data-parallel size"), tr("%1 (tp %2 \u00d7 pp %3 per replica)")
                                          .arg(num(f.dataParallel), num(s.tensorParallel), num(s.pipelineParallel)));
        row(tr("Global batch"), tr("%1 sequences (%2 per device \u00d7 dp %3 \u00d7 %4 accumulated)")
                                    .arg(num(f.globalBatch), num(s.perDeviceBatch), num(f.dataParallel),
                                         num(s.gradientAccumulation)));
        row(tr("Tokens per step"), tr("%1 (%2 tokens a sequence)").arg(num(f.tokensPerStep), num(s.blockSize)));
    }
    if (f.parameters.total > 0) {
        row(tr("Parameters"), num(f.parameters.total));
        row(tr("Per rank (largest)"), num(f.parameters.maxPerRank));
        if (f.parameters.perStage.size() > 1) {
            QStringList stages;
            for (qint64 n : f.parameters.perStage)
                stages << num(n);
            row(tr("Per stage, one tp rank"), stages.join(QStringLiteral(" / ")));
        }
    } else {
        row(tr("Parameters"), model.known || s.program != JobProgram::Backend ? tr("unknown")
                                                                               : tr("unknown (no model)"));
    }
    m_figuresLabel->setText(QStringLiteral("<table>") + rows.join(QString()) + QStringLiteral("</table>"));
}

void JobLauncher::showPreview()
{
    m_preview->setPlainText(m_form->previewText());
    m_preview->setEnabled(true);
    updateLaunchButton();
    Q_EMIT previewUpdated();
}

void JobLauncher::updateLaunchButton()
{
    const bool launching = m_form->isLaunching();
    m_launch->setEnabled(hasPlan() && !launching && !m_form->isCheckingSeed());
    if (launching)
        m_launch->setToolTip(tr("Starting…"));
    else if (m_form->isCheckingSeed())
        m_launch->setToolTip(tr("Looking for the last run's graphs first…"));
    else if (hasPlan())
        m_launch->setToolTip(tr("Start the command shown as job %1").arg(currentPlan().record.id));
    else
        m_launch->setToolTip(tr("Fix the settings marked in red first"));
    m_copy->setEnabled(hasPlan());
    m_copyScript->setEnabled(hasPlan());
    m_seedStop->setVisible(m_form->isSeeding());
}

bool JobLauncher::isBusy() const
{
    return m_settle->isActive() || m_form->isBusy();
}

void JobLauncher::launch()
{
    if (!hasPlan() || m_form->isLaunching())
        return;
    m_launchError->setText(tr("Starting %1…").arg(currentPlan().record.id));
    m_launchError->setStyleSheet(QString());
    m_form->launch();
    updateLaunchButton();
}

// ---- the compile cache ----

void JobLauncher::setDefaultCompileCache(const QString &root)
{
    const QString current = m_cacheUrl->text().trimmed();
    if (current.isEmpty() || current == m_defaultCache)
        m_cacheUrl->setText(root);
    m_defaultCache = root;
}

void JobLauncher::recheckCache()
{
    m_form->checkCache(input(), true);
    showCache();
}

void JobLauncher::showCache()
{
    const CacheNote &n = m_form->cacheNote();
    m_cacheLabel->setText(n.location);
    m_cacheLabel->setToolTip(n.explanation);
    m_cacheWarning->setText(n.health);
    m_cacheWarning->setStyleSheet(n.warning ? QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name())
                                            : QString());
    m_clean->setVisible(n.needsCleaning);
}

// The last run with the same graph settings: how many of its graphs the cache holds now, and whether any is blocked.
void JobLauncher::showPriorGraphs()
{
    const PriorGraphs &p = m_form->priorGraphs();
    m_priorGraphs->setText(displayName(p.text()));
    m_priorGraphs->setVisible(p.found);
    m_priorGraphs->setStyleSheet(p.blocked > 0 ? QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name())
                                               : QString());
}

}  // namespace ingot
