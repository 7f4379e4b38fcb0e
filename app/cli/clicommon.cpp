#include "app/cli/clicommon.h"

#include "services/cache/cachelocation.h"
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

nlohmann::json cacheLocationJson(const CacheLocation &loc, const QString &used)
{
    static const char *rules[] = {"NEURON_CC_FLAGS --cache_dir", "NEURON_COMPILE_CACHE_URL", "default"};
    nlohmann::json j{{"path", u8(used.isEmpty() ? loc.path : used)},
                     {"resolved", u8(loc.path)},
                     {"rule", rules[int(loc.rule)]},
                     {"explanation", u8(loc.explanation)},
                     {"caching_disabled", loc.cachingDisabled}};
    if (!loc.where.isEmpty())
        j["host"] = u8(loc.where);
    return j;
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

int terminalWidth(const QString &text)
{
    int width = 0;
    for (const char32_t c : text.toUcs4()) {
        const QChar::Category cat = QChar::category(c);
        if (cat == QChar::Mark_NonSpacing || cat == QChar::Mark_Enclosing || cat == QChar::Other_Format)
            continue;
        const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) || (c >= 0x3041 && c <= 0x33FF)
                          || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF)
                          || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F)
                          || (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F)
                          || (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD);
        width += wide ? 2 : 1;
    }
    return width;
}

QString Table::render() const
{
    QList<int> width;
    for (const QString &h : m_headers)
        width << terminalWidth(h);
    for (const QStringList &r : m_rows)
        for (int i = 0; i < m_headers.size(); ++i)
            width[i] = std::max(width[i], terminalWidth(r[i]));
    auto line = [&](const QStringList &cells) {
        QString s;
        for (int i = 0; i < cells.size(); ++i) {
            const bool last = i + 1 == cells.size();
            const QString pad(std::max(0, width[i] - terminalWidth(cells[i])), QLatin1Char(' '));
            const QString c = m_right[i] ? pad + cells[i] : (last ? cells[i] : cells[i] + pad);
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

namespace {
std::atomic_bool g_stop{false};
static_assert(std::atomic_bool::is_always_lock_free, "set from a signal handler");

extern "C" void requestStop(int)
{
    g_stop.store(true);
}
}  // namespace

std::atomic_bool &stopRequested()
{
    return g_stop;
}

StopOnSignals::StopOnSignals()
{
    struct sigaction sa {};
    sa.sa_handler = requestStop;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // the second one is not caught
    sigaction(SIGINT, &sa, &m_oldInt);
    sigaction(SIGTERM, &sa, &m_oldTerm);
}

StopOnSignals::~StopOnSignals()
{
    sigaction(SIGINT, &m_oldInt, nullptr);
    sigaction(SIGTERM, &m_oldTerm, nullptr);
}

}  // namespace ingot::cli
