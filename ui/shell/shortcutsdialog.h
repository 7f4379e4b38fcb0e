// Help ▸ Keyboard shortcuts: every shortcut the window defines, read from its actions and shortcuts (so the list
// cannot drift from the code), grouped by page, in the platform's notation.
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QPointer>

class QTreeWidget;
class QWidget;

namespace ingot {

struct ShortcutEntry
{
    QString group;  // a page's name, or "Everywhere"
    QString name;  // what it does, without the mnemonic's &
    QList<QKeySequence> keys;
    QPointer<QObject> source;  // the QAction or QShortcut
};

// A page of the window and its name: actions and shortcuts under it are grouped under that name.
struct ShortcutGroup
{
    QWidget *page;
    QString name;
};

// Every QAction with a shortcut and every QShortcut among `window`'s descendants, grouped by the page they are in
// (those in no page: `everywhere`), in the order the groups are given, then by name.
QList<ShortcutEntry> collectShortcuts(QWidget *window, const QList<ShortcutGroup> &pages, const QString &everywhere);

class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShortcutsDialog)

public:
    ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent = nullptr);
    QTreeWidget *tree() const { return m_tree; }

private:
    QTreeWidget *m_tree;
};

}  // namespace ingot
