#include "ui/localcache/emptystatewidget.h"

#include "ui/common/resources.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ingot {

EmptyStateWidget::EmptyStateWidget(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_details(new QLabel(this))
    , m_add(new QPushButton(tr("Add cache folder…"), this))
    , m_sample(new QPushButton(tr("Open sample cache"), this))
    , m_retry(new QPushButton(tr("Look again"), this))
{
    initResources();
    auto *icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/ingot.svg")).pixmap(96, 96));
    icon->setAlignment(Qt::AlignCenter);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    m_title->setFont(f);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setWordWrap(true);
    m_details->setAlignment(Qt::AlignCenter);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setMaximumWidth(640);
    // Its height follows its width (heightForWidth), so the whole text shows at any width: the label sits in a row
    // between stretches rather than being aligned in the column, which would give it its size hint's height only.
    QSizePolicy wrap(QSizePolicy::Preferred, QSizePolicy::Minimum);
    wrap.setHeightForWidth(true);
    m_details->setSizePolicy(wrap);
    m_title->setSizePolicy(wrap);
    m_add->setIcon(style()->standardIcon(QStyle::SP_DirOpenIcon));
    m_sample->setDefault(true);
    m_sample->setToolTip(tr("Writes a small, realistic compile cache (sparse files, a few kB on disk) so you can try "
                            "every feature: states, failures, locks, charts and maintenance."));

    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_add);
    buttons->addWidget(m_sample);
    buttons->addWidget(m_retry);
    buttons->addStretch();

    auto *col = new QVBoxLayout(this);
    col->addStretch(2);
    col->addWidget(icon);
    col->addSpacing(12);
    col->addWidget(m_title);
    auto *details = new QHBoxLayout;
    details->addStretch();
    details->addWidget(m_details, 100);
    details->addStretch();
    col->addLayout(details);
    col->addSpacing(16);
    col->addLayout(buttons);
    col->addStretch(3);

    connect(m_add, &QPushButton::clicked, this, &EmptyStateWidget::addFolderRequested);
    connect(m_sample, &QPushButton::clicked, this, &EmptyStateWidget::sampleRequested);
    connect(m_retry, &QPushButton::clicked, this, &EmptyStateWidget::retryRequested);
}

void EmptyStateWidget::setMessage(const QString &title, const QString &details)
{
    m_title->setText(title);
    m_details->setText(details);
}

}  // namespace ingot
