#include "ui/common/theme.h"

#include <QApplication>
#include <QEvent>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

namespace ingot {

Appearance appearanceFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Appearance::Light;
    if (name == QLatin1String("dark"))
        return Appearance::Dark;
    return Appearance::System;
}

QString appearanceName(Appearance appearance)
{
    switch (appearance) {
    case Appearance::Light: return QStringLiteral("light");
    case Appearance::Dark: return QStringLiteral("dark");
    case Appearance::System: break;
    }
    return QStringLiteral("system");
}

QPalette lightPalette()
{
    QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    // Ingot draws secondary text (why this folder, hints) in the disabled colour: keep it readable (4.5:1 on Base).
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6e, 0x6e, 0x6e));
    return p;
}

QPalette darkPalette()
{
    // Fusion draws focus (the outline of a focused field, button, check box or current row) in Highlight darkened by
    // a quarter, lifted to a fixed lightness when that is brighter than 160. Highlight's HSV value is kept above 200
    // so that the lift applies: the ring stands out at 4:1 on the dark buttons and window (a highlight of value 196
    // gave 1.8:1, hard to see), and white selected text stays at 4.5:1 on it.
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), alternate(0x26, 0x26, 0x26), text(0xe6, 0xe6, 0xe6),
        button(0x35, 0x35, 0x35), disabledText(0x8a, 0x8a, 0x8a), highlight(0x36, 0x74, 0xcc);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1a, 0x1a));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0a, 0x0a));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x8f, 0xb8, 0xec));
    p.setColor(QPalette::LinkVisited, QColor(0xb8, 0xa4, 0xf5));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Button, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

void applyAppearance(Appearance appearance)
{
    // What the system gave the app, kept from before the first change so that System can go back to it.
    static const QString systemStyle = QApplication::style()->name();
    static const QPalette systemPalette = QApplication::palette();
    switch (appearance) {
    case Appearance::System:
        if (QApplication::style()->name() != systemStyle)
            QApplication::setStyle(systemStyle);
        QApplication::setPalette(systemPalette);
        break;
    case Appearance::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        break;
    case Appearance::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        break;
    }
}

namespace {
// Keeps a widget's text in its tone across palette changes.
class ToneKeeper final : public QObject
{
public:
    ToneKeeper(QWidget *widget, Tone tone)
        : QObject(widget)
        , m_tone(tone)
    {
        widget->installEventFilter(this);
        apply(widget);
    }

    void setTone(QWidget *widget, Tone tone)
    {
        m_tone = tone;
        apply(widget);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)
            apply(static_cast<QWidget *>(watched));
        return false;
    }

private:
    void apply(QWidget *widget)
    {
        // The background the text is on: a window's, so the tone follows QApplication's palette.
        const QColor color = toneTextColor(m_tone, isDarkPalette(QApplication::palette()));
        QPalette pal = widget->palette();
        if (pal.color(QPalette::WindowText) == color && pal.color(QPalette::Text) == color)
            return;
        pal.setColor(QPalette::WindowText, color);
        pal.setColor(QPalette::Text, color);
        widget->setPalette(pal);
    }

    Tone m_tone;
};
}  // namespace

void setToneText(QWidget *widget, Tone tone)
{
    for (QObject *child : widget->children())
        if (auto *keeper = dynamic_cast<ToneKeeper *>(child)) {
            keeper->setTone(widget, tone);
            return;
        }
    new ToneKeeper(widget, tone);
}

}  // namespace ingot
