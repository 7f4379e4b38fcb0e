#include "models/cache/statecolors.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>

namespace ingot {

Tone stateTone(ModuleState s)
{
    switch (s) {
    case ModuleState::Success: return Tone::Good;
    case ModuleState::Failed: return Tone::Bad;
    case ModuleState::Locked: return Tone::Warning;
    case ModuleState::Incomplete: return Tone::Busy;
    case ModuleState::Empty: return Tone::Neutral;
    case ModuleState::Unknown: return Tone::Info;
    }
    return Tone::Neutral;
}

QColor stateColor(ModuleState s)
{
    return toneTextColor(stateTone(s));
}

QIcon stateIcon(ModuleState s)
{
    static QIcon cache[ModuleStateCount];
    QIcon &icon = cache[int(s)];
    if (icon.isNull()) {
        QPixmap pm(32, 32);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(toneFillColor(stateTone(s)));
        if (s == ModuleState::Unknown)
            p.drawRoundedRect(QRectF(7, 7, 18, 18), 3, 3);
        else
            p.drawEllipse(QRectF(6, 6, 20, 20));
        icon = QIcon(pm);
    }
    return icon;
}

QString stateLabel(ModuleState s)
{
    switch (s) {
    case ModuleState::Success: return QCoreApplication::translate("ingot::State", "Success");
    case ModuleState::Failed: return QCoreApplication::translate("ingot::State", "Failed");
    case ModuleState::Locked: return QCoreApplication::translate("ingot::State", "Locked");
    case ModuleState::Incomplete: return QCoreApplication::translate("ingot::State", "Incomplete");
    case ModuleState::Empty: return QCoreApplication::translate("ingot::State", "Empty");
    case ModuleState::Unknown: return QCoreApplication::translate("ingot::State", "Unknown");
    }
    return {};
}

QString entryStateLabel(const CacheModule &m)
{
    switch (m.kind) {
    case EntryKind::Module:
    case EntryKind::TracedModule: return stateLabel(m.state);
    case EntryKind::UnknownDir: return QCoreApplication::translate("ingot::State", "Unknown folder");
    case EntryKind::UnknownFile: return QCoreApplication::translate("ingot::State", "Unknown file");
    case EntryKind::LinkedDir: return QCoreApplication::translate("ingot::State", "Linked folder");
    }
    return stateLabel(m.state);
}

}  // namespace ingot
