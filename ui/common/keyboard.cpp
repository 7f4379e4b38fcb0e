#include "ui/common/keyboard.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QShortcut>

namespace ingot {

void addContextMenuShortcut(QAbstractItemView *view)
{
    auto *shortcut = new QShortcut(QKeySequence(QStringLiteral("Shift+F10")), view);
    shortcut->setContext(Qt::WidgetShortcut);
    shortcut->setWhatsThis(QApplication::translate("ingot::Keyboard", "Open the list's context menu"));
    QObject::connect(shortcut, &QShortcut::activated, view, [view] {
        const QRect r = view->visualRect(view->currentIndex());
        const QPoint pos = r.isValid() ? r.center() : QPoint(4, 4);
        QContextMenuEvent e(QContextMenuEvent::Keyboard, pos, view->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(view->viewport(), &e);
    });
}

void addDeleteKeyForButton(QAbstractItemView *view, QAbstractButton *button, const QString &text)
{
    auto *action = new QAction(text, view);
    action->setShortcut(QKeySequence::Delete);
    action->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(action, &QAction::triggered, button, [button] {
        if (button->isEnabled())
            button->click();
    });
    view->addAction(action);
}

}  // namespace ingot
