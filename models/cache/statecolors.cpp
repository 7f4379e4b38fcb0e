#include "models/cache/statecolors.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>

namespace ingot {

QColor stateColor(ModuleState s)
{
    switch (s) {
    case ModuleState::Success: return QColor(0x2e, 0x9e, 0x4f);
    case ModuleState::Failed: return QColor(0xd6, 0x3a, 0x3a);
    case ModuleState::Locked: return QColor(0xe0, 0x8e, 0x1b);
    case ModuleState::Incomplete: return QColor(0x8a, 0x6f, 0xd1);
    case ModuleState::Empty: return QColor(0x9a, 0x9a, 0x9a);
    case ModuleState::Unknown: return QColor(0x5b, 0x7d, 0xa8);
    }
    return Qt::gray;
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
        p.setBrush(stateColor(s));
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

}  // namespace ingot
