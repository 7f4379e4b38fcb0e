// The job monitor's NeuronCores tab: a heat strip of each NeuronCore's utilization over time (one row per core, one
// column per sample, newest right), the job's device and host memory, execution errors and ECC events, and the
// devices neuron-ls lists. Only shows: sampling is the monitor's (JobService::neuronCoresOf).
#pragma once

#include "services/jobs/neuronmonitor.h"

#include <QWidget>

class QLabel;

namespace ingot {

class NeuronHeatStrip final : public QWidget
{
    Q_OBJECT
public:
    explicit NeuronHeatStrip(QWidget *parent = nullptr);
    void setHistory(const NeuronCoreHistory *history) { m_history = history; update(); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *) override;

private:
    const NeuronCoreHistory *m_history = nullptr;
};

class NeuronCoresView final : public QWidget
{
    Q_OBJECT
public:
    explicit NeuronCoresView(QWidget *parent = nullptr);
    void clear();
    void showUnavailable(const QString &why);
    void addSample(const NeuronSample &s);
    const NeuronCoreHistory &history() const { return m_history; }
    QString summaryText() const;
    QString devicesText() const;
    QString unavailableText() const;

private:
    NeuronCoreHistory m_history;
    QLabel *m_unavailable;
    QLabel *m_devices;
    QLabel *m_summary;
    NeuronHeatStrip *m_strip;
};

}  // namespace ingot
