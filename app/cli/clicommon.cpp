#include "app/cli/clicommon.h"

#include "services/util/names.h"

#include <QTextStream>

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace ingot::cli {

std::string u8(const QString &s)
{
    return s.toStdString();
}

QString terminalSafe(const QString &text)
{
    // Lines and tabs are the message's own; every other control character comes from a name and is escaped.
    return displayText(text);
}

void out(const QString &text)
{
    const QByteArray b = terminalSafe(text).toUtf8() + '\n';
    std::fwrite(b.constData(), 1, size_t(b.size()), stdout);
}

void err(const QString &text)
{
    const QByteArray b = terminalSafe(text).toUtf8() + '\n';
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

void printJson(const nlohmann::json &j)
{
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

Table::Table(QStringList headers, QList<bool> rightAligned)
    : m_headers(std::move(headers))
    , m_right(std::move(rightAligned))
{
    while (m_right.size() < m_headers.size())
        m_right << false;
}

void Table::add(QStringList row)
{
    for (QString &cell : row)
        cell = displayName(cell);  // a name cannot split a row or reach the terminal as a control sequence
    while (row.size() < m_headers.size())
        row << QString();
    m_rows << row;
}

QString Table::render() const
{
    QList<int> width;
    for (const QString &h : m_headers)
        width << int(h.size());
    for (const QStringList &r : m_rows)
        for (int i = 0; i < m_headers.size(); ++i)
            width[i] = std::max(width[i], int(r[i].size()));
    auto line = [&](const QStringList &cells) {
        QString s;
        for (int i = 0; i < cells.size(); ++i) {
            const bool last = i + 1 == cells.size();
            QString c = m_right[i] ? cells[i].rightJustified(width[i]) : (last ? cells[i] : cells[i].leftJustified(width[i]));
            s += c;
            if (!last)
                s += QStringLiteral("  ");
        }
        return s;
    };
    QStringList lines{line(m_headers)};
    for (const QStringList &r : m_rows)
        lines << line(r);
    return lines.join(QLatin1Char('\n'));
}

bool stdinIsTerminal()
{
    return ::isatty(STDIN_FILENO) == 1;
}

bool confirm(const QString &question)
{
    if (!stdinIsTerminal())
        return false;
    const QByteArray q = (question + QStringLiteral(" [y/N] ")).toUtf8();
    std::fwrite(q.constData(), 1, size_t(q.size()), stderr);
    std::fflush(stderr);
    std::string answer;
    if (!std::getline(std::cin, answer))
        return false;
    return answer == "y" || answer == "Y" || answer == "yes" || answer == "YES";
}

}  // namespace ingot::cli
