// Keyboard helpers every page uses.
#pragma once

class QAbstractButton;
class QAbstractItemView;
class QString;

namespace ingot {

// Shift+F10, as the Menu key does, opens `view`'s context menu at its current item (or its top-left corner).
void addContextMenuShortcut(QAbstractItemView *view);

// Delete in `view` does what `button` does (a click, only while it is enabled: the button's own preview and rules
// apply); `text` names it in the keyboard shortcuts list.
void addDeleteKeyForButton(QAbstractItemView *view, QAbstractButton *button, const QString &text);

}  // namespace ingot
