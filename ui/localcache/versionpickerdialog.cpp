#include "ui/localcache/versionpickerdialog.h"

#include "services/util/format.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ingot {

VersionPickerDialog::VersionPickerDialog(const QVector<VersionStats> &versions, const QStringList &kept, QWidget *parent)
    : QDialog(parent)
    , m_list(new QListWidget(this))
{
    setWindowTitle(tr("Keep which compiler versions?"));
    auto *intro = new QLabel(tr("Entries of the versions you leave unchecked are previewed for removal next. "
                                "Locked entries and files the compiler does not write always stay."), this);
    intro->setWordWrap(true);
    bool anyKept = false;
    for (const VersionStats &v : versions) {
        auto *item = new QListWidgetItem(tr("%1 — %n entries, %2", nullptr, v.entries).arg(v.version, formatBytes(v.size)), m_list);
        item->setData(Qt::UserRole, v.version);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool keep = kept.contains(v.version);
        anyKept = anyKept || keep;
        item->setCheckState(keep ? Qt::Checked : Qt::Unchecked);
    }
    if (!anyKept && m_list->count() > 0)
        m_list->item(0)->setCheckState(Qt::Checked);  // the newest compiler, by default
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Preview removal…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(intro);
    col->addWidget(m_list);
    col->addWidget(buttons);
    resize(560, 320);
}

QStringList VersionPickerDialog::keptVersions() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            out << m_list->item(i)->data(Qt::UserRole).toString();
    return out;
}

}  // namespace ingot
