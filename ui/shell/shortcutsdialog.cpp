#include "ui/shell/shortcutsdialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QShortcut>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ingot {

namespace {
// "&Rescan" -> "Rescan", "Save && quit" -> "Save & quit".
QString withoutMnemonic(QString text)
{
    static const QRegularExpression amp(QStringLiteral("&(.)"));
    text.replace(amp, QStringLiteral("\\1"));
    return text;
}

// The page `o` is in: its own parent chain (an action's parent, a shortcut's widget) up to a page.
QString groupOf(const QObject *o, const QList<ShortcutGroup> &pages, const QString &everywhere)
{
    for (const QObject *p = o; p; p = p->parent())
        for (const ShortcutGroup &g : pages)
            if (p == g.page)
                return g.name;
    return everywhere;
}
}  // namespace

QList<ShortcutEntry> collectShortcuts(QWidget *window, const QList<ShortcutGroup> &pages, const QString &everywhere)
{
    QList<ShortcutEntry> entries;
    for (QAction *a : window->findChildren<QAction *>()) {
        if (a->shortcuts().isEmpty())
            continue;
        QString name = withoutMnemonic(a->text());
        if (name.isEmpty())
            name = a->toolTip();
        // An action in the window's menus works on every page, whoever made it.
        bool inMenus = false;
        for (QObject *o : a->associatedObjects())
            if (auto *menu = qobject_cast<QMenu *>(o))
                inMenus = inMenus || groupOf(menu, pages, everywhere) == everywhere;
        const QString group = inMenus ? everywhere : groupOf(a, pages, everywhere);
        entries.append({group, name.remove(QStringLiteral("…")).trimmed(), a->shortcuts(), a});
    }
    // Buttons with a shortcut of their own (not the Alt+letter their text's & gives them).
    for (QAbstractButton *b : window->findChildren<QAbstractButton *>()) {
        const QKeySequence key = b->shortcut();
        if (key.isEmpty() || key == QKeySequence::mnemonic(b->text()))
            continue;
        QString name = withoutMnemonic(b->text());
        if (name.isEmpty())
            name = b->accessibleName();
        entries.append({groupOf(b, pages, everywhere), name, {key}, b});
    }
    for (QShortcut *s : window->findChildren<QShortcut *>()) {
        QList<QKeySequence> keys = s->keys();
        keys.removeAll(QKeySequence());
        if (keys.isEmpty())
            continue;
        entries.append({groupOf(s, pages, everywhere), s->whatsThis(), keys, s});
    }
    QStringList order{everywhere};
    for (const ShortcutGroup &g : pages)
        order << g.name;
    std::stable_sort(entries.begin(), entries.end(), [&order](const ShortcutEntry &a, const ShortcutEntry &b) {
        const auto ga = order.indexOf(a.group), gb = order.indexOf(b.group);
        if (ga != gb)
            return ga < gb;
        return a.name.localeAwareCompare(b.name) < 0;
    });
    return entries;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Shortcut")});
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAccessibleName(tr("Keyboard shortcuts"));
    QTreeWidgetItem *group = nullptr;
    QSet<QPair<QString, QString>> shown;  // a group's "Open the context menu" of two lists is listed once
    for (const ShortcutEntry &e : entries) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(m_tree, {e.group});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
            group->setFlags(Qt::ItemIsEnabled);
        }
        QStringList keys;
        for (const QKeySequence &k : e.keys)
            keys << k.toString(QKeySequence::NativeText);
        const QPair<QString, QString> row{e.group, e.name + QLatin1Char('\t') + keys.join(u' ')};
        if (shown.contains(row))
            continue;
        shown.insert(row);
        auto *item = new QTreeWidgetItem(group, {e.name, keys.join(tr(", ", "between key sequences"))});
        item->setToolTip(0, e.name);
    }
    m_tree->expandAll();
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);

    auto *hint = new QLabel(tr("Tab and Shift+Tab move between fields; the Menu key or Shift+F10 opens a list's "
                               "context menu; Alt with an underlined letter opens a menu."), this);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->button(QDialogButtonBox::Close)->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_tree, 1);
    col->addWidget(hint);
    col->addWidget(buttons);
    resize(520, 600);
}

}  // namespace ingot
