#include "ui/common/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QWheelEvent>
#include <QWidget>

namespace ingot {

namespace {

QWidget *guarded(QObject *o)
{
    if (!o->isWidgetType())
        return nullptr;
    auto *w = static_cast<QWidget *>(o);
    return qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w) ? w : nullptr;
}

void takeNoFocusFromTheWheel(QWidget *w)
{
    if (w->focusPolicy() == Qt::WheelFocus)
        w->setFocusPolicy(Qt::StrongFocus);
}

class WheelGuard final : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Polish) {
            if (QWidget *w = guarded(watched))
                takeNoFocusFromTheWheel(w);
        } else if (event->type() == QEvent::Wheel) {
            QWidget *w = guarded(watched);
            if (w && !w->hasFocus()) {
                // The scroll areas holding the field scroll instead, the nearest that can (the event is handed to
                // each one's viewport: a wheel event sent by hand is not passed up by QApplication).
                const auto *e = static_cast<QWheelEvent *>(event);
                bool taken = false;
                for (QWidget *p = w->parentWidget(); p && !taken; p = p->parentWidget()) {
                    auto *area = qobject_cast<QAbstractScrollArea *>(p);
                    if (!area)
                        continue;
                    QWheelEvent up(w->mapTo(area->viewport(), e->position()), e->globalPosition(), e->pixelDelta(),
                                   e->angleDelta(), e->buttons(), e->modifiers(), e->phase(), e->inverted(), e->source());
                    QCoreApplication::sendEvent(area->viewport(), &up);
                    taken = up.isAccepted();
                }
                event->setAccepted(taken);
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }
};

}  // namespace

void installWheelGuard()
{
    static const QString name = QStringLiteral("ingot-wheel-guard");
    if (!qApp || qApp->findChild<QObject *>(name, Qt::FindDirectChildrenOnly))
        return;
    auto *guard = new WheelGuard(qApp);
    guard->setObjectName(name);
    qApp->installEventFilter(guard);
    for (QWidget *w : QApplication::allWidgets())
        if (guarded(w))
            takeNoFocusFromTheWheel(w);
}

}  // namespace ingot
