#include "ui/jobs/openrunfolder.h"

#include "services/jobs/jobservice.h"
#include "services/jobs/runimport.h"
#include "services/util/names.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPointer>

namespace ingot {

namespace {
struct OpenRunFolderText {
    Q_DECLARE_TR_FUNCTIONS(ingot::OpenRunFolder)
};
}  // namespace

QFileDialog *openRunFolder(QWidget *parent, JobService *service, std::function<void(const QString &id)> shown)
{
    auto *dialog = new QFileDialog(parent, OpenRunFolderText::tr("Open a run folder"), QDir::homePath());
    dialog->setObjectName(QStringLiteral("openRunFolderDialog"));
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, service, [parent = QPointer<QWidget>(parent), service, shown](const QString &folder) {
        service->importRun(folder, [parent, folder, shown](const ImportedRun &run, const QString &error) {
            if (error.isEmpty()) {
                shown(run.id);
                return;
            }
            auto *box = new QMessageBox(QMessageBox::Warning, OpenRunFolderText::tr("Open a run folder"),
                                        OpenRunFolderText::tr("%1 could not be opened as a run.").arg(displayName(folder)),
                                        QMessageBox::Ok, parent);
            box->setObjectName(QStringLiteral("openRunFolderError"));
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        });
    });
    dialog->open();
    return dialog;
}

}  // namespace ingot
