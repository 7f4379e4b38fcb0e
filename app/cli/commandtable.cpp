#include "app/cli/commandtable.h"

#include "app/cli/clicommon.h"

#include <QCoreApplication>

namespace ingot::cli {

namespace {
struct TableText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

QString padded(const QString &name, int width)
{
    return QStringLiteral("  ") + name.leftJustified(width) + QStringLiteral("  ");
}
}  // namespace

void CommandTable::addGroup(CommandGroup group)
{
    m_groups.append(std::move(group));
}

void CommandTable::add(Command command)
{
    m_commands.append(std::move(command));
}

void CommandTable::add(const QVector<Command> &commands)
{
    for (const Command &c : commands)
        add(c);
}

const Command *CommandTable::find(const QString &group, const QString &name) const
{
    for (const Command &c : m_commands)
        if (c.group == group && c.name == name)
            return &c;
    return nullptr;
}

const CommandGroup *CommandTable::findGroup(const QString &name) const
{
    for (const CommandGroup &g : m_groups)
        if (g.name == name)
            return &g;
    return nullptr;
}

QString CommandTable::usage() const
{
    QString text = TableText::tr("Usage: ingot-cli GROUP COMMAND [options]\n\nGroups:\n");
    int width = 0;
    for (const CommandGroup &g : m_groups)
        width = std::max(width, int(g.name.size()));
    for (const Command &c : m_commands)
        if (c.group.isEmpty())
            width = std::max(width, int(c.name.size()));
    for (const CommandGroup &g : m_groups)
        text += padded(g.name, width) + g.summary + QLatin1Char('\n');
    for (const Command &c : m_commands)
        if (c.group.isEmpty())
            text += padded(c.name, width) + c.summary + QLatin1Char('\n');
    text += QLatin1Char('\n') + padded(QStringLiteral("--version"), width) + TableText::tr("Print the version") +
            QLatin1Char('\n') + padded(QStringLiteral("--help"), width) + TableText::tr("This help") + QLatin1Char('\n');
    return text;
}

QString CommandTable::groupUsage(const QString &group) const
{
    QString text = TableText::tr("Usage: ingot-cli %1 COMMAND [options]\n\nCommands:\n").arg(group);
    int width = 0;
    for (const Command &c : m_commands)
        if (c.group == group)
            width = std::max(width, int(c.name.size()));
    for (const Command &c : m_commands)
        if (c.group == group)
            text += padded(c.name, width) + c.summary + QLatin1Char('\n');
    if (const CommandGroup *g = findGroup(group); g && !g->footer.isEmpty())
        text += QLatin1Char('\n') + g->footer + QLatin1Char('\n');
    text += TableText::tr("`ingot-cli %1 COMMAND --help` for more.").arg(group);
    return text;
}

int CommandTable::run(const QStringList &args) const
{
    if (args.isEmpty()) {
        err(usage());
        return Usage;
    }
    const QString first = args.first();
    if (first == QLatin1String("--version")) {
        out(QStringLiteral("ingot-cli ") + QCoreApplication::applicationVersion());
        return Ok;
    }
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        out(usage());
        return Ok;
    }
    if (const Command *c = find(QString(), first))
        return runCommand(*c, args.mid(1));
    if (!findGroup(first)) {
        err(TableText::tr("error: unknown group \"%1\"\n\n").arg(first) + usage());
        return Usage;
    }
    const QStringList rest = args.mid(1);
    if (rest.isEmpty() || rest.first() == QLatin1String("--help") || rest.first() == QLatin1String("-h")) {
        (rest.isEmpty() ? err : out)(groupUsage(first));
        return rest.isEmpty() ? Usage : Ok;
    }
    if (const Command *c = find(first, rest.first()))
        return runCommand(*c, rest.mid(1));
    err(TableText::tr("error: unknown command \"%1 %2\"\n").arg(first, rest.first()) + groupUsage(first));
    return Usage;
}

int CommandTable::runCommand(const Command &command, const QStringList &args) const
{
    const QString full = command.group.isEmpty() ? command.name : command.group + QLatin1Char(' ') + command.name;
    QCommandLineParser p;
    p.setApplicationDescription(command.summary);
    p.addHelpOption();
    if (command.shared & CacheDirOption)
        p.addOption({QStringLiteral("cache-dir"),
                     TableText::tr("The cache folder (default: as the Neuron runtime resolves it: --cache_dir in NEURON_CC_FLAGS, "
                                   "NEURON_COMPILE_CACHE_URL, /var/tmp/neuron-compile-cache)."),
                     TableText::tr("DIR")});
    if (command.shared & HostOption)
        p.addOption({QStringLiteral("host"),
                     TableText::tr("On this remote host, over SSH (an ssh config alias, or user@host:port)."),
                     TableText::tr("HOST")});
    if (command.shared & JsonOption)
        p.addOption({QStringLiteral("json"), TableText::tr("Print JSON instead of a table.")});
    if (command.addOptions)
        command.addOptions(p);
    if (!p.parse(QStringList{QStringLiteral("ingot-cli ") + full} + args)) {
        err(TableText::tr("error: %1").arg(p.errorText()));
        return Usage;
    }
    if (p.isSet(QStringLiteral("help"))) {
        // Qt names the program by its path; say the command as it is typed.
        QString help = p.helpText();
        const QString program = QCoreApplication::arguments().value(0);
        if (!program.isEmpty() && help.startsWith(QStringLiteral("Usage: ") + program))
            help.replace(7, program.size(), QStringLiteral("ingot-cli ") + full);
        out(help);
        return Ok;
    }
    Invocation inv{p, false, QString(), QString()};
    inv.json = (command.shared & JsonOption) && p.isSet(QStringLiteral("json"));
    if (command.shared & CacheDirOption)
        inv.cacheDir = p.value(QStringLiteral("cache-dir"));
    if (command.shared & HostOption)
        inv.host = p.value(QStringLiteral("host"));
    return command.run(inv);
}

}  // namespace ingot::cli
