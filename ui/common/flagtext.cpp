#include "ui/common/flagtext.h"

#include <QApplication>
#include <QCoreApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>

namespace ingot {

namespace {

constexpr QChar kJoiner(0x2060);

class PlainCopy final : public QObject
{
public:
    explicit PlainCopy(QLabel *label)
        : QObject(label)
        , m_label(label)
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched != m_label)
            return false;
        if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
            copy();
            return true;
        }
        if (event->type() == QEvent::ContextMenu && (m_label->textInteractionFlags() & Qt::TextSelectableByMouse)) {
            QMenu menu(m_label);
            QAction *copyAction = menu.addAction(QCoreApplication::translate("ingot::FlagText", "&Copy"), this, &PlainCopy::copy);
            copyAction->setEnabled(m_label->hasSelectedText());
            menu.addAction(QCoreApplication::translate("ingot::FlagText", "Select All"), this, [this] { m_label->setSelection(0, int(m_label->text().size())); });
            menu.exec(static_cast<QContextMenuEvent *>(event)->globalPos());
            return true;
        }
        return false;
    }

private:
    void copy()
    {
        if (m_label->hasSelectedText())
            QApplication::clipboard()->setText(flagsAsWritten(m_label->selectedText()));
    }

    QLabel *m_label;
};

}  // namespace

QString keepFlagsWhole(const QString &text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    bool inFlag = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isSpace())
            inFlag = false;
        else if (c == QLatin1Char('-') && (i == 0 || text.at(i - 1).isSpace() || text.at(i - 1) == QLatin1Char('(')))
            inFlag = true;
        out += c;
        if (inFlag && c == QLatin1Char('-') && i + 1 < text.size() && !text.at(i + 1).isSpace())
            out += kJoiner;
    }
    return out;
}

QString flagsAsWritten(const QString &shown)
{
    QString s = shown;
    return s.remove(kJoiner);
}

void copyFlagsAsWritten(QLabel *label)
{
    label->installEventFilter(new PlainCopy(label));
}

}  // namespace ingot
