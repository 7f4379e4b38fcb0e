// File ▸ Open a run folder…: a folder dialog, then the run in it adopted as a read-only job of the history
// (JobService::importRun, services/jobs/runimport.h); the page only shows what the service did.
#pragma once

#include <functional>

class QFileDialog;
class QString;
class QWidget;

namespace ingot {

class JobService;

// Opens the folder dialog (window-modal, not waited for) and returns it. Once a folder is chosen and imported,
// `shown` gets the job's id; an error is said in a message box.
QFileDialog *openRunFolder(QWidget *parent, JobService *service, std::function<void(const QString &id)> shown);

}  // namespace ingot
