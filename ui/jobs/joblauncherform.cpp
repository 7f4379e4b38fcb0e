// The launcher's form, section by section (what runs, model and data, parallelism, batch, optimisation, saving,
// environment, the side panel), the Python chooser and the presets: which widgets each holds, the setting (flag)
// each edits and where its problems show. The form's values and what the launch form says of them are shown by
// joblauncher.cpp.
#include "ui/jobs/joblauncher.h"

#include "models/common/tones.h"
#include "services/util/shellquote.h"

#include "services/cache/cachelocation.h"
#include "services/jobs/jobservice.h"
#include "services/jobs/modelinfo.h"
#include "services/util/names.h"

#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSet>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>
#include <cmath>
#include <functional>

namespace ingot {

namespace {

QSpinBox *spin(int min, int max)
{
    auto *s = new QSpinBox;
    s->setRange(min, max);
    s->setGroupSeparatorShown(true);
    s->setMinimumWidth(120);
    s->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // numbers need no full-width field
    return s;
}

// A unit after the number that agrees with it ("every 1 step", "every 2 steps"): `unit` gives it for a count.
void countSuffix(QSpinBox *box, const std::function<QString(int)> &unit)
{
    box->setSuffix(unit(box->value()));
    QObject::connect(box, &QSpinBox::valueChanged, box, [box, unit](int v) { box->setSuffix(unit(v)); });
}

QGroupBox *group(const QString &title, QFormLayout **form)
{
    auto *box = new QGroupBox(title);
    *form = new QFormLayout(box);
    (*form)->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    (*form)->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return box;
}

}  // namespace

QWidget *JobLauncher::withProblem(const QString &field, QWidget *editor, QWidget *shown)
{
    auto *box = new QWidget;
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(shown ? shown : editor);
    auto *problem = new QLabel;
    problem->setObjectName(QStringLiteral("problem_") + field);
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
    problem->setTextFormat(Qt::PlainText);
    problem->hide();
    v->addWidget(problem);
    m_fields.insert(field, editor);
    m_problemLabels.insert(field, problem);
    watch(editor);
    return box;
}

QWidget *JobLauncher::withBrowse(QLineEdit *edit, const std::function<void()> &browse)
{
    auto *row = new QWidget;
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(edit, 1);
    auto *button = new QPushButton(tr("Browse…"));
    connect(button, &QPushButton::clicked, this, browse);
    h->addWidget(button);
    return row;
}

void JobLauncher::watch(QWidget *w)
{
    if (auto *e = qobject_cast<QLineEdit *>(w))
        connect(e, &QLineEdit::textChanged, this, &JobLauncher::onChanged);
    else if (auto *s = qobject_cast<QSpinBox *>(w))
        connect(s, &QSpinBox::valueChanged, this, &JobLauncher::onChanged);
    else if (auto *c = qobject_cast<QCheckBox *>(w))
        connect(c, &QCheckBox::toggled, this, &JobLauncher::onChanged);
    else if (auto *r = qobject_cast<QRadioButton *>(w))
        connect(r, &QRadioButton::toggled, this, &JobLauncher::onChanged);
    else if (auto *b = qobject_cast<QComboBox *>(w))
        connect(b, &QComboBox::currentIndexChanged, this, &JobLauncher::onChanged);
    else if (auto *t = qobject_cast<QTableWidget *>(w))
        connect(t, &QTableWidget::itemChanged, this, &JobLauncher::onChanged);
}

QWidget *JobLauncher::buildWhatRuns()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("What runs"), &form);
    m_backend = new QRadioButton(tr("Ingot's training backend"));
    m_script = new QRadioButton(tr("A training script"));
    m_module = new QRadioButton(tr("A module"));
    m_programGroup = new QButtonGroup(this);
    m_programGroup->addButton(m_backend, int(JobProgram::Backend));
    m_programGroup->addButton(m_script, int(JobProgram::Script));
    m_programGroup->addButton(m_module, int(JobProgram::Module));
    auto *programs = new QWidget;
    auto *h = new QHBoxLayout(programs);
    h->setContentsMargins(0, 0, 0, 0);
    for (QRadioButton *r : {m_backend, m_script, m_module}) {
        h->addWidget(r);
        watch(r);
    }
    h->addStretch(1);
    form->addRow(tr("Program:"), programs);

    // The backend's engine: automatic, or chosen; what the job's Python has is proposed below it (LaunchForm).
    m_engine = new QComboBox;
    for (const char *engine : {"auto", "native", "xla"})
        m_engine->addItem(engineLabel(QLatin1String(engine)), QLatin1String(engine));
    m_engineProposal = new QLabel;
    m_engineProposal->setObjectName(QStringLiteral("engineProposal"));
    m_engineProposal->setWordWrap(true);
    m_engineProposal->setTextFormat(Qt::PlainText);
    auto *engineBox = new QWidget;
    auto *ev = new QVBoxLayout(engineBox);
    ev->setContentsMargins(0, 0, 0, 0);
    ev->setSpacing(2);
    ev->addWidget(m_engine);
    // A Slurm job's Python is asked on the login node; a compute node only when asked (an allocation of its own).
    m_askNode = new QPushButton(tr("Ask a compute node"));
    m_askNode->setObjectName(QStringLiteral("askComputeNode"));
    m_askNode->setToolTip(tr("Ask the job's Python on a compute node of the partition (srun --immediate: only a node "
                             "free now, for a few seconds); the login node answers otherwise"));
    connect(m_askNode, &QPushButton::clicked, this, [this] {
        m_form->askComputeNode(input());
        showEngineProposal();
    });
    auto *proposalRow = new QHBoxLayout;
    proposalRow->setContentsMargins(0, 0, 0, 0);
    proposalRow->addWidget(m_engineProposal, 1);
    proposalRow->addWidget(m_askNode, 0, Qt::AlignTop);
    ev->addLayout(proposalRow);
    form->addRow(tr("Engine:"), withProblem(QStringLiteral("engine"), m_engine, engineBox));

    m_scriptEdit = new QLineEdit;
    m_scriptEdit->setPlaceholderText(tr("train.py"));
    form->addRow(tr("Script:"), withProblem(QStringLiteral("script"), m_scriptEdit, withBrowse(m_scriptEdit, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Training script"), m_scriptEdit->text(),
                                                       tr("Python scripts (*.py);;All files (*)"));
        if (!f.isEmpty())
            m_scriptEdit->setText(f);
    })));
    m_moduleEdit = new QLineEdit;
    m_moduleEdit->setPlaceholderText(tr("package.train (runs python -m NAME)"));
    form->addRow(tr("Module:"), withProblem(QStringLiteral("module"), m_moduleEdit));
    m_extraArgs = new QLineEdit;
    m_extraArgs->setPlaceholderText(tr("--my_flag 3 --note \"quoted words\""));
    m_extraArgs->setToolTip(tr("Appended after the settings, split as a shell would split them"));
    form->addRow(tr("Script arguments:"), withProblem(QStringLiteral("extra_args"), m_extraArgs));
    m_passSettings = new QCheckBox(tr("Pass these settings as flags (optimum-neuron's names)"));
    form->addRow(QString(), withProblem(QStringLiteral("pass_settings"), m_passSettings));
    m_name = new QLineEdit;
    m_name->setPlaceholderText(tr("Derived from the model, layout and start time"));
    form->addRow(tr("Job name:"), withProblem(QStringLiteral("name"), m_name));
    return box;
}

QWidget *JobLauncher::buildModel()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Model and data"), &form);
    m_builtinModel = new QRadioButton(tr("Built-in config"));
    m_folderModel = new QRadioButton(tr("Hugging Face folder"));
    auto *modelGroup = new QButtonGroup(this);
    modelGroup->addButton(m_builtinModel);
    modelGroup->addButton(m_folderModel);
    watch(m_builtinModel);
    m_configName = new QComboBox;
    for (const QString &n : builtinModelNames())
        m_configName->addItem(n, n);
    form->addRow(m_builtinModel, withProblem(QStringLiteral("config_name"), m_configName));
    m_modelPath = new QLineEdit;
    m_modelPath->setPlaceholderText(tr("A folder with config.json"));
    QWidget *modelRow = withBrowse(m_modelPath, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Model folder"), m_modelPath->text());
        if (!d.isEmpty())
            m_modelPath->setText(d);
    });
    form->addRow(m_folderModel, withProblem(QStringLiteral("model_name_or_path"), m_modelPath, modelRow));
    m_modelInfo = new QLabel;
    m_modelInfo->setWordWrap(true);
    m_modelInfo->setEnabled(false);  // secondary text
    form->addRow(QString(), m_modelInfo);

    m_sampleData = new QRadioButton(tr("Bundled sample"));
    m_fileData = new QRadioButton(tr("A file"));
    m_folderData = new QRadioButton(tr("A folder"));
    auto *dataGroup = new QButtonGroup(this);
    auto *dataRow = new QWidget;
    auto *h = new QHBoxLayout(dataRow);
    h->setContentsMargins(0, 0, 0, 0);
    for (QRadioButton *r : {m_sampleData, m_fileData, m_folderData}) {
        dataGroup->addButton(r);
        h->addWidget(r);
        watch(r);
    }
    h->addStretch(1);
    form->addRow(tr("Training data:"), dataRow);
    m_trainFile = new QLineEdit;
    m_trainFile->setPlaceholderText(tr("Text to train on"));
    form->addRow(QString(), withProblem(QStringLiteral("train_file"), m_trainFile, withBrowse(m_trainFile, [this] {
        const QString f = m_folderData->isChecked()
                              ? QFileDialog::getExistingDirectory(this, tr("Training data"), m_trainFile->text())
                              : QFileDialog::getOpenFileName(this, tr("Training data"), m_trainFile->text());
        if (!f.isEmpty())
            m_trainFile->setText(f);
    })));
    m_outputDir = new QLineEdit;
    m_outputDir->setPlaceholderText(tr("A fresh folder per job"));
    QWidget *outputRow = withBrowse(m_outputDir, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Output folder"), m_outputDir->text());
        if (!d.isEmpty())
            m_outputDir->setText(d);
    });
    form->addRow(tr("Output folder:"), withProblem(QStringLiteral("output_dir"), m_outputDir, outputRow));
    return box;
}

QWidget *JobLauncher::buildParallelism()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Parallelism"), &form);
    m_nproc = spin(1, 1024);
    m_nproc->setToolTip(tr("torchrun --nproc_per_node: one process per NeuronCore"));
    form->addRow(tr("Processes per node:"), withProblem(QStringLiteral("nproc_per_node"), m_nproc));
    m_nnodes = spin(1, 1024);
    form->addRow(tr("Nodes:"), withProblem(QStringLiteral("nnodes"), m_nnodes));
    m_tp = spin(1, 1024);
    form->addRow(tr("Tensor parallel:"), withProblem(QStringLiteral("tensor_parallel_size"), m_tp));
    m_pp = spin(1, 1024);
    form->addRow(tr("Pipeline parallel:"), withProblem(QStringLiteral("pipeline_parallel_size"), m_pp));
    m_microbatches = spin(1, 1 << 20);
    form->addRow(tr("Micro-batches:"), withProblem(QStringLiteral("num_microbatches"), m_microbatches));
    m_zero1 = new QCheckBox(tr("ZeRO-1 (shard the optimizer state across data-parallel ranks)"));
    form->addRow(QString(), withProblem(QStringLiteral("zero_1"), m_zero1));
    m_fsdp = new QCheckBox(tr("Fully sharded (FSDP, ZeRO-3: parameters, gradients and optimizer state; native engine)"));
    form->addRow(QString(), withProblem(QStringLiteral("fsdp"), m_fsdp));
    m_sequenceParallel = new QCheckBox(tr("Sequence parallel"));
    form->addRow(QString(), withProblem(QStringLiteral("disable_sequence_parallel"), m_sequenceParallel));
    m_embeddingParallel = new QCheckBox(tr("Embedding parallel (split the embedding and head by vocabulary)"));
    form->addRow(QString(), withProblem(QStringLiteral("disable_embedding_parallelization"), m_embeddingParallel));
    return box;
}

QWidget *JobLauncher::buildBatch()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Batch"), &form);
    m_batch = spin(1, 1 << 20);
    form->addRow(tr("Per-device batch:"), withProblem(QStringLiteral("per_device_train_batch_size"), m_batch));
    m_accumulation = spin(1, 1 << 20);
    form->addRow(tr("Gradient accumulation:"),
                 withProblem(QStringLiteral("gradient_accumulation_steps"), m_accumulation));
    m_blockSize = spin(1, 1 << 24);
    countSuffix(m_blockSize, [](int n) { return tr(" token(s)", nullptr, n); });
    form->addRow(tr("Block size:"), withProblem(QStringLiteral("block_size"), m_blockSize));
    return box;
}

QWidget *JobLauncher::buildOptimisation()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Optimisation"), &form);
    m_learningRate = new QLineEdit;
    form->addRow(tr("Learning rate:"), withProblem(QStringLiteral("learning_rate"), m_learningRate));
    m_weightDecay = new QLineEdit;
    form->addRow(tr("Weight decay:"), withProblem(QStringLiteral("weight_decay"), m_weightDecay));
    m_warmup = spin(0, INT_MAX);
    countSuffix(m_warmup, [](int n) { return tr(" step(s)", nullptr, n); });
    form->addRow(tr("Warm-up:"), withProblem(QStringLiteral("warmup_steps"), m_warmup));

    m_byEpochs = new QRadioButton(tr("Train for epochs"));
    m_bySteps = new QRadioButton(tr("Train for steps"));
    auto *lengthGroup = new QButtonGroup(this);
    lengthGroup->addButton(m_byEpochs);
    lengthGroup->addButton(m_bySteps);
    watch(m_byEpochs);
    m_epochs = new QLineEdit;
    form->addRow(m_byEpochs, withProblem(QStringLiteral("num_train_epochs"), m_epochs));
    m_maxSteps = spin(0, INT_MAX);
    m_maxSteps->setToolTip(tr("--max_steps; when training for epochs the form passes -1"));
    form->addRow(m_bySteps, withProblem(QStringLiteral("max_steps"), m_maxSteps));

    m_maxGradNorm = new QLineEdit;
    for (QLineEdit *e : {m_learningRate, m_weightDecay, m_epochs, m_maxGradNorm}) {
        e->setMinimumWidth(120);
        e->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    }
    m_maxGradNorm->setToolTip(tr("0: no clipping"));
    m_maxGradNorm->setPlaceholderText(tr("0: no clipping"));
    form->addRow(tr("Clip gradients at norm:"), withProblem(QStringLiteral("max_grad_norm"), m_maxGradNorm));
    m_bf16 = new QCheckBox(tr("bf16 (train in bfloat16)"));
    form->addRow(QString(), withProblem(QStringLiteral("bf16"), m_bf16));
    m_torchCompile = new QCheckBox(tr("torch.compile (native engine)"));
    form->addRow(QString(), withProblem(QStringLiteral("torch_compile"), m_torchCompile));
    return box;
}

QWidget *JobLauncher::buildSaving()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Saving, logging and the rest"), &form);
    m_loggingSteps = spin(1, INT_MAX);
    m_loggingSteps->setPrefix(tr("every "));
    countSuffix(m_loggingSteps, [](int n) { return tr(" step(s)", nullptr, n); });
    form->addRow(tr("Log:"), withProblem(QStringLiteral("logging_steps"), m_loggingSteps));
    m_saveSteps = spin(0, INT_MAX);
    m_saveSteps->setPrefix(tr("every "));
    countSuffix(m_saveSteps, [](int n) { return tr(" step(s)", nullptr, n); });
    m_saveSteps->setSpecialValueText(tr("only at the end"));
    form->addRow(tr("Save a checkpoint:"), withProblem(QStringLiteral("save_steps"), m_saveSteps));
    m_saveTotalLimit = spin(0, INT_MAX);
    countSuffix(m_saveTotalLimit, [](int n) { return tr(" checkpoint(s)", nullptr, n); });
    m_saveTotalLimit->setSpecialValueText(tr("all checkpoints"));
    m_saveTotalLimit->setToolTip(tr("Keep only the newest N checkpoint-N folders: older ones are deleted once a new "
                                    "one is fully written (0: keep all)"));
    form->addRow(tr("Keep the last:"), withProblem(QStringLiteral("save_total_limit"), m_saveTotalLimit));
    m_resumeFrom = new QLineEdit;
    m_resumeFrom->setPlaceholderText(tr("Start from scratch"));
    form->addRow(tr("Resume from:"), withProblem(QStringLiteral("resume_from_checkpoint"), m_resumeFrom,
                                                withBrowse(m_resumeFrom, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Checkpoint to resume from"),
                                                            m_resumeFrom->text());
        if (!d.isEmpty())
            m_resumeFrom->setText(d);
    })));
    m_seed = spin(0, INT_MAX);
    m_seed->setGroupSeparatorShown(false);
    form->addRow(tr("Seed:"), withProblem(QStringLiteral("seed"), m_seed));
    m_device = new QComboBox;
    m_device->addItem(tr("auto (Neuron if present, else CUDA, else CPU)"), QStringLiteral("auto"));
    m_device->addItem(tr("cpu"), QStringLiteral("cpu"));
    m_device->addItem(tr("cuda"), QStringLiteral("cuda"));
    m_device->addItem(tr("xla (Neuron, PyTorch/XLA engine)"), QStringLiteral("xla"));
    m_device->addItem(tr("neuron (TorchNeuron, native engine)"), QStringLiteral("neuron"));
    form->addRow(tr("Device:"), withProblem(QStringLiteral("device"), m_device));
    return box;
}

QWidget *JobLauncher::buildEnvironment()
{
    QFormLayout *form;
    QGroupBox *box = group(tr("Environment"), &form);
    // Where: this machine or a host (the Remote hosts' list); the Python, the files named in the form and the
    // figures are looked up there.
    m_runOn = new QComboBox;
    m_runOn->addItem(tr("This machine"), QStringLiteral("local"));
    m_runOn->setToolTip(tr("Where the job runs: this machine, or a host over SSH (its Python, its files; the "
                           "backend is copied there once)"));
    m_runOnInfo = new QLabel;
    m_runOnInfo->setWordWrap(true);
    m_runOnInfo->setEnabled(false);
    auto *runOnBox = new QWidget;
    auto *rv = new QVBoxLayout(runOnBox);
    rv->setContentsMargins(0, 0, 0, 0);
    rv->setSpacing(2);
    rv->addWidget(m_runOn);
    rv->addWidget(m_runOnInfo);
    form->addRow(tr("Run on:"), withProblem(QStringLiteral("host"), m_runOn, runOnBox));
    connect(m_runOn, &QComboBox::currentIndexChanged, this, &JobLauncher::onRunOnChanged);
    m_otherNodes = new QLineEdit;
    m_otherNodes->setPlaceholderText(tr("host2, host3, … (one per node after the first)"));
    m_otherNodes->setToolTip(tr("A multi-node job runs one torchrun per host with the same rendezvous; the output "
                                "folder must be on a filesystem every host shares"));
    form->addRow(tr("Other nodes:"), m_otherNodes);
    watch(m_otherNodes);

    m_python = new QComboBox;
    m_python->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_python->setMinimumContentsLength(30);
    m_python->setModel(new QStandardItemModel(m_python));
    m_pythonInfo = new QLabel;
    m_pythonInfo->setWordWrap(true);
    m_pythonInfo->setEnabled(false);
    auto *pythonBox = new QWidget;
    auto *pv = new QVBoxLayout(pythonBox);
    pv->setContentsMargins(0, 0, 0, 0);
    pv->setSpacing(2);
    pv->addWidget(m_python);
    pv->addWidget(m_pythonInfo);
    form->addRow(tr("Python:"), withProblem(QStringLiteral("python"), m_python, pythonBox));
    connect(m_python, &QComboBox::activated, this, [this](int index) {
        if (m_python->itemData(index, ChooseRole).toBool())
            choosePython();
    });
    connect(m_python, &QComboBox::currentIndexChanged, this, &JobLauncher::updatePythonInfo);
    fillPythons({});

    m_ccFlags = new QLineEdit;
    m_ccFlags->setPlaceholderText(tr("Not set"));
    form->addRow(QStringLiteral("NEURON_CC_FLAGS:"), withProblem(QStringLiteral("NEURON_CC_FLAGS"), m_ccFlags));
    m_cacheUrl = new QLineEdit;
    m_cacheUrl->setPlaceholderText(tr("Not set (Neuron's default: %1)").arg(CacheLocation::defaultPath()));
    form->addRow(QStringLiteral("NEURON_COMPILE_CACHE_URL:"),
                 withProblem(QStringLiteral("NEURON_COMPILE_CACHE_URL"), m_cacheUrl));
    // Precompile first (the Neuron SDK's workflow): enabled where the SDK's tool is found, else disabled with why.
    m_precompile = new QCheckBox(tr("Precompile first (neuron_parallel_compile), then train"));
    m_precompile->setToolTip(tr("The same command runs first under the Neuron SDK's neuron_parallel_compile: every graph "
                                "is traced, compiled in parallel into the cache, then the training runs. A failed graph "
                                "stops the job before training."));
    m_precompile->setEnabled(false);
    connect(m_precompile, &QCheckBox::toggled, this, &JobLauncher::onChanged);
    // Why it cannot be chosen, under it (the same words as the Slurm section's option: precompileUnavailableReason).
    m_precompileWhy = new QLabel;
    m_precompileWhy->setObjectName(QStringLiteral("precompileWhy"));
    m_precompileWhy->setWordWrap(true);
    m_precompileWhy->setTextFormat(Qt::PlainText);
    m_precompileWhy->setEnabled(false);  // secondary text
    m_precompileWhy->hide();
    auto *precompileBox = new QWidget;
    auto *precompileCol = new QVBoxLayout(precompileBox);
    precompileCol->setContentsMargins(0, 0, 0, 0);
    precompileCol->setSpacing(2);
    precompileCol->addWidget(m_precompile);
    precompileCol->addWidget(m_precompileWhy);
    form->addRow(QString(), withProblem(QStringLiteral("precompile"), m_precompile, precompileBox));

    m_env = new QTableWidget(0, 2);
    m_env->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    m_env->horizontalHeader()->setStretchLastSection(true);
    m_env->verticalHeader()->hide();
    m_env->setMinimumHeight(90);
    m_env->setMaximumHeight(110);
    auto *add = new QToolButton;
    add->setText(tr("Add"));
    auto *remove = new QToolButton;
    remove->setText(tr("Remove"));
    connect(add, &QToolButton::clicked, this, [this] {
        const int row = m_env->rowCount();
        m_env->insertRow(row);
        m_env->setItem(row, 0, new QTableWidgetItem);
        m_env->setItem(row, 1, new QTableWidgetItem);
        m_env->setCurrentCell(row, 0);
        m_env->editItem(m_env->item(row, 0));
    });
    connect(remove, &QToolButton::clicked, this, [this] {
        const int row = m_env->currentRow();
        if (row >= 0) {
            m_env->removeRow(row);
            onChanged();
        }
    });
    auto *envBox = new QWidget;
    auto *eh = new QHBoxLayout(envBox);
    eh->setContentsMargins(0, 0, 0, 0);
    eh->addWidget(m_env, 1);
    auto *ev = new QVBoxLayout;
    ev->addWidget(add);
    ev->addWidget(remove);
    ev->addStretch(1);
    eh->addLayout(ev);
    form->addRow(tr("Extra variables:"), withProblem(QStringLiteral("env"), m_env, envBox));
    return box;
}

// *Bring compiled graphs first*: the box, the places, what it will bring (or is bringing) and its Stop.
void JobLauncher::addSeedWidgets(QVBoxLayout *cv)
{
    m_seedBox = new QCheckBox(tr("Bring compiled graphs first"));
    m_seedBox->setToolTip(tr("Before training, copy the graphs of the last run with these settings that this cache lacks "
                             "from the places below"));
    m_seedPlaces = new QLineEdit;  // ids as `job launch --seed-cache` takes them, separated by spaces
    m_seedPlaces->setPlaceholderText(tr("Places: a folder, host:NAME, s3://bucket/prefix, hub:org/name (default: where the "
                                        "last run's graphs are)"));
    m_seedPlaces->setEnabled(false);
    m_seedNote = new QLabel;
    m_seedNote->setWordWrap(true);
    m_seedNote->setTextFormat(Qt::PlainText);
    connect(m_seedBox, &QCheckBox::toggled, m_seedPlaces, &QWidget::setEnabled);
    m_seedStop = new QPushButton(tr("Stop bringing graphs"));  // shown while they are copied for the launch under way
    m_seedStop->setToolTip(tr("Copy no more graphs; the job is not started"));
    m_seedStop->hide();
    connect(m_seedStop, &QPushButton::clicked, m_form, &LaunchForm::stopSeeding);
    auto *seedRow = new QHBoxLayout;
    seedRow->addWidget(m_seedNote, 1);
    seedRow->addWidget(m_seedStop, 0, Qt::AlignTop);
    cv->addWidget(m_seedBox);
    cv->addWidget(m_seedPlaces);
    cv->addLayout(seedRow);
}

QWidget *JobLauncher::buildSidePanel()
{
    // The figures, the cache and the command scroll when the page is short (a 1280×820 window): squeezed under their
    // own height they overlapped (the Copy buttons over the command, "Per rank" and the cache's warnings cut off).
    // Launch stays in view below them.
    auto *panel = new QWidget;
    auto *col = new QVBoxLayout(panel);
    col->setContentsMargins(0, 0, 0, 0);

    auto *figures = new QGroupBox(tr("What this layout means"));
    auto *fv = new QVBoxLayout(figures);
    m_figuresLabel = new QLabel;
    m_figuresLabel->setTextFormat(Qt::RichText);
    m_figuresLabel->setWordWrap(true);
    m_figuresLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fv->addWidget(m_figuresLabel);
    col->addWidget(figures);

    auto *cache = new QGroupBox(tr("Compile cache"));
    auto *cv = new QVBoxLayout(cache);
    m_cacheLabel = new QLabel;
    m_cacheLabel->setWordWrap(true);
    m_cacheLabel->setTextFormat(Qt::PlainText);
    m_cacheLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    cv->addWidget(m_cacheLabel);
    m_cacheWarning = new QLabel;
    m_cacheWarning->setWordWrap(true);
    m_cacheWarning->setTextFormat(Qt::PlainText);
    cv->addWidget(m_cacheWarning);
    m_priorGraphs = new QLabel;  // the last run with these settings: how many of its graphs are compiled here now
    m_priorGraphs->setWordWrap(true);
    m_priorGraphs->setTextFormat(Qt::PlainText);
    m_priorGraphs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_priorGraphs->hide();
    cv->addWidget(m_priorGraphs);
    addSeedWidgets(cv);
    auto *ch = new QHBoxLayout;
    m_clean = new QPushButton(tr("Clean…"));
    m_clean->setToolTip(tr("Preview the maintenance of this cache on the Local cache page"));
    m_clean->hide();
    connect(m_clean, &QPushButton::clicked, this, [this] { Q_EMIT cleanCacheRequested(m_form->cacheNote().root); });
    auto *again = new QPushButton(tr("Check again"));
    connect(again, &QPushButton::clicked, this, &JobLauncher::recheckCache);
    ch->addWidget(m_clean);
    ch->addWidget(again);
    ch->addStretch(1);
    cv->addLayout(ch);
    col->addWidget(cache);

    auto *command = new QGroupBox(tr("Command"));
    auto *mv = new QVBoxLayout(command);
    m_generalProblems = new QLabel;
    m_generalProblems->setWordWrap(true);
    m_generalProblems->setTextFormat(Qt::PlainText);
    m_generalProblems->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
    m_generalProblems->hide();
    mv->addWidget(m_generalProblems);
    m_notes = new QLabel;  // jobNotes: said, never refused for
    m_notes->setObjectName(QStringLiteral("launchNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->hide();
    mv->addWidget(m_notes);
    m_preview = new QPlainTextEdit;
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_preview->setMinimumHeight(120);
    mv->addWidget(m_preview, 1);
    auto *bh = new QHBoxLayout;
    m_copy = new QPushButton(tr("Copy"));
    m_copy->setToolTip(tr("Copy the command line to the clipboard"));
    m_copyScript = new QPushButton(tr("Copy as shell script"));
    connect(m_copy, &QPushButton::clicked, this, [this] {
        if (hasPlan())
            QApplication::clipboard()->setText(currentPlan().commandLine);
    });
    connect(m_copyScript, &QPushButton::clicked, this, [this] {
        if (hasPlan())
            QApplication::clipboard()->setText(currentPlan().script);
    });
    bh->addWidget(m_copy);
    bh->addWidget(m_copyScript);
    bh->addStretch(1);
    mv->addLayout(bh);
    col->addWidget(command, 1);
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("launcherSidePanel"));
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *side = new QWidget;
    auto *sideCol = new QVBoxLayout(side);
    sideCol->setContentsMargins(0, 0, 0, 0);
    sideCol->addWidget(scroll, 1);
    auto *launchRow = new QHBoxLayout;
    m_launchError = new QLabel;
    m_launchError->setWordWrap(true);
    m_launchError->setTextFormat(Qt::PlainText);
    m_launch = new QPushButton(tr("&Launch"));
    m_launch->setDefault(true);
    m_launch->setMinimumWidth(120);
    connect(m_launch, &QPushButton::clicked, this, &JobLauncher::launch);
    launchRow->addWidget(m_launchError, 1);
    launchRow->addWidget(m_launch, 0, Qt::AlignBottom);
    sideCol->addLayout(launchRow);
    return side;
}

// ---- Python ----

void JobLauncher::fillPythons(const QVector<PythonInfo> &pythons)
{
    const QString selected = m_python->count() ? m_python->currentData(PathRole).toString() : QString();
    const bool applying = m_applying;
    m_applying = true;
    auto *model = static_cast<QStandardItemModel *>(m_python->model());
    model->clear();
    QString automatic;
    for (const PythonInfo &p : pythons)
        if (automatic.isEmpty() && p.usable())
            automatic = p.path;
    auto *first = new QStandardItem(automatic.isEmpty() ? tr("Automatic: the first Python with torch")
                                                        : tr("Automatic (%1)").arg(automatic));
    first->setData(QString(), PathRole);
    model->appendRow(first);
    for (const PythonInfo &p : pythons) {
        const QString text = p.usable() ? tr("%1 \u2014 Python %2, torch %3").arg(p.path, p.version, p.torchVersion)
                                        : tr("%1 \u2014 Python %2, no torch (unusable)").arg(p.path, p.version);
        auto *item = new QStandardItem(text);
        item->setData(p.path, PathRole);
        if (!p.usable()) {
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(p.error);
        }
        model->appendRow(item);
    }
    auto *choose = new QStandardItem(tr("Choose…"));
    choose->setData(true, ChooseRole);
    model->appendRow(choose);
    selectPython(selected);
    m_applying = applying;
    if (m_form->pythonsKnown() && !applying)
        invalidate();  // "no Python with torch" may now apply, or no longer
}

void JobLauncher::selectPython(const QString &path)
{
    int index = path.isEmpty() ? 0 : m_python->findData(path, PathRole);
    if (index < 0) {
        auto *model = static_cast<QStandardItemModel *>(m_python->model());
        auto *item = new QStandardItem(path);
        item->setData(path, PathRole);
        index = model->rowCount() - 1;  // before "Choose…"
        model->insertRow(index, item);
    }
    m_python->setCurrentIndex(index);
    updatePythonInfo();
}

void JobLauncher::updatePythonInfo()
{
    const QString path = m_python->currentData(PathRole).toString();
    if (path.isEmpty()) {
        m_pythonInfo->setText(m_form->isDetectingPythons() ? tr("Looking for Python interpreters…")
                                                       : tr("The first interpreter found that imports torch"));
        return;
    }
    for (const PythonInfo &p : m_form->pythons()) {
        if (p.path != path)
            continue;
        if (!p.usable()) {
            m_pythonInfo->setText(tr("torch does not import here: %1").arg(p.error));
            return;
        }
        m_pythonInfo->setText((p.hasTorchNeuronx ? tr("Python %1, torch %2, torch-neuronx")
                               : p.hasTorchXla   ? tr("Python %1, torch %2, torch-xla")
                                                 : tr("Python %1, torch %2"))
                                  .arg(p.version, p.torchVersion));
        return;
    }
    m_pythonInfo->setText(tr("Chosen by hand: not checked for torch"));
}

void JobLauncher::choosePython()
{
    // A host's interpreter is named by its path there (checked with the form); this machine's is picked.
    const QString f = where() != QLatin1String("local")
        ? QInputDialog::getText(this, tr("Python interpreter"),
                                tr("The path of the Python on %1:").arg(displayName(where())), QLineEdit::Normal,
                                QStringLiteral("/usr/bin/python3"))
        : QFileDialog::getOpenFileName(this, tr("Python interpreter"), QStringLiteral("/usr/bin"));
    if (f.isEmpty()) {
        selectPython(spec().python);
        return;
    }
    selectPython(f);
}

// ---- presets ----

QStringList JobLauncher::presetNames() const
{
    return LaunchForm::presetNames();
}

void JobLauncher::reloadPresets(const QString &select)
{
    const bool applying = m_applying;
    m_applying = true;
    m_presets->clear();
    m_presets->addItem(tr("None"));
    for (const QString &name : presetNames())
        m_presets->addItem(name);
    const int index = select.isEmpty() ? 0 : m_presets->findText(select);
    m_presets->setCurrentIndex(std::max(0, index));
    m_deletePreset->setEnabled(m_presets->currentIndex() > 0);
    m_applying = applying;
}

void JobLauncher::applyPreset(int index)
{
    m_deletePreset->setEnabled(index > 0);
    if (m_applying || index <= 0)
        return;
    JobSpec s;
    QString error;
    if (!LaunchForm::loadPreset(m_presets->itemText(index), &s, &error)) {
        m_launchError->setText(error);
        m_launchError->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
        return;
    }
    setSpec(s);
}

void JobLauncher::savePreset(const QString &name)
{
    LaunchForm::savePreset(name, spec());
    reloadPresets(name);
}

void JobLauncher::deletePreset(const QString &name)
{
    LaunchForm::deletePreset(name);
    reloadPresets(QString());
}

void JobLauncher::askPresetName()
{
    bool ok = false;
    const QString current = m_presets->currentIndex() > 0 ? m_presets->currentText() : QString();
    const QString name = QInputDialog::getText(this, tr("Save as preset"), tr("Name of the preset:"), QLineEdit::Normal,
                                               current, &ok).trimmed();
    if (!ok || name.isEmpty())
        return;
    if (name != current && presetNames().contains(name)
        && QMessageBox::question(this, tr("Save as preset"), tr("Replace the preset \u201c%1\u201d?").arg(name))
               != QMessageBox::Yes)
        return;
    savePreset(name);
}

}  // namespace ingot
