#include "ui/jobs/neuroncoresview.h"

#include "models/common/tones.h"
#include "services/jobs/jobtext.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

namespace {
constexpr int rowHeight = 20;
constexpr int cellWidth = 10;
constexpr int labelWidth = 56;

// Utilization as a colour: pale (idle) to saturated (busy).
QColor heat(double percent)
{
    const double t = std::clamp(percent / 100.0, 0.0, 1.0);
    return QColor::fromHsvF(0.6 - 0.6 * t, 0.15 + 0.8 * t, 0.98 - 0.25 * t);
}
}  // namespace

NeuronHeatStrip::NeuronHeatStrip(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QSize NeuronHeatStrip::sizeHint() const
{
    const int rows = m_history ? int(m_history->cores().size()) : 0;
    return {labelWidth + 120 * cellWidth, std::max(rows, 1) * rowHeight + 24};
}

QSize NeuronHeatStrip::minimumSizeHint() const
{
    return {labelWidth + 20 * cellWidth, sizeHint().height()};
}

void NeuronHeatStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_history || m_history->isEmpty())
        return;
    const QList<int> cores = m_history->cores();
    const QVector<NeuronMonitorReport> &samples = m_history->samples();
    const int columns = std::max(1, (width() - labelWidth) / cellWidth);
    const int first = std::max(0, int(samples.size()) - columns);
    p.setPen(palette().text().color());
    for (int row = 0; row < cores.size(); ++row) {
        const int y = row * rowHeight;
        p.drawText(QRect(0, y, labelWidth - 4, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                   tr("NC %1").arg(cores[row]));
        for (int i = first; i < samples.size(); ++i) {
            const auto it = samples[i].utilization.constFind(cores[row]);
            const QRect cell(labelWidth + (i - first) * cellWidth, y + 1, cellWidth - 1, rowHeight - 2);
            p.fillRect(cell, it == samples[i].utilization.cend() ? palette().window().color() : heat(*it));
        }
    }
    // The scale under the strip: idle to busy.
    const int y = int(cores.size()) * rowHeight + 6;
    for (int x = 0; x < 100; ++x)
        p.fillRect(QRect(labelWidth + x, y, 1, 10), heat(x));
    p.drawText(QRect(labelWidth + 106, y - 2, 480, 14), Qt::AlignLeft | Qt::AlignVCenter, tr("0–100 % utilization · one column per sample, newest on the right"));
}

NeuronCoresView::NeuronCoresView(QWidget *parent)
    : QWidget(parent), m_unavailable(new QLabel(this)), m_devices(new QLabel(this)), m_summary(new QLabel(this)),
      m_strip(new NeuronHeatStrip(this))
{
    for (QLabel *l : {m_unavailable, m_devices, m_summary}) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::PlainText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_strip->setHistory(&m_history);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_strip);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_unavailable);
    col->addWidget(m_devices);
    col->addWidget(m_summary);
    col->addWidget(scroll, 1);
    clear();
}

void NeuronCoresView::clear()
{
    m_history.clear();
    m_unavailable->hide();
    m_devices->clear();
    m_summary->setText(tr("NeuronCores are read while the job runs."));
    m_strip->update();
}

void NeuronCoresView::showUnavailable(const QString &why)
{
    m_unavailable->setText(displayName(why));
    m_unavailable->show();
}

void NeuronCoresView::addSample(const NeuronSample &s)
{
    if (!s.available || !s.report) {
        showUnavailable(s.error);
        return;
    }
    m_unavailable->hide();
    if (s.devices)
        m_devices->setText(neuronDevicesLines(*s.devices).join(QLatin1Char('\n')));
    const NeuronMonitorReport &r = *s.report;
    m_history.add(r);
    m_strip->setHistory(&m_history);
    m_strip->updateGeometry();
    QString text = neuronReportText(r);
    const QStringList alerts = neuronAlerts(r);
    if (!alerts.isEmpty())
        text += QLatin1Char('\n') + QStringLiteral("⚠ ") + alerts.join(QStringLiteral("\n⚠ "));
    m_summary->setText(text);
    m_summary->setStyleSheet(r.executionErrors > 0 || r.eccUncorrected > 0
                                 ? QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name())
                                 : QString());
}

QString NeuronCoresView::summaryText() const
{
    return m_summary->text();
}

QString NeuronCoresView::devicesText() const
{
    return m_devices->text();
}

QString NeuronCoresView::unavailableText() const
{
    return m_unavailable->isVisibleTo(this) ? m_unavailable->text() : QString();
}

}  // namespace ingot
