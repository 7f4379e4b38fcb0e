// The one command table of ingot-cli: every command is a row (group, name, summary, its own options, what it
// runs). The table parses the arguments, adds the options a group shares (--json, --cache-dir), prints --help and
// the usage of a group or of the whole tool, and dispatches. A command file only lists its rows.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>

namespace ingot::cli {

// Options a command takes from its group, parsed by the table.
enum SharedOption {
    NoSharedOptions = 0,
    JsonOption = 1,      // --json: print JSON instead of a table
    CacheDirOption = 2,  // --cache-dir DIR: the compile cache folder
    HostOption = 4,      // --host HOST: on a remote host over SSH
};

// What a command's run() gets: its parsed options.
struct Invocation {
    const QCommandLineParser &parser;
    bool json = false;
    QString cacheDir;
    QString host;  // --host; empty: this machine

    bool isSet(const QString &name) const { return parser.isSet(name); }
    QString value(const QString &name) const { return parser.value(name); }
    QStringList values(const QString &name) const { return parser.values(name); }
    QStringList positional() const { return parser.positionalArguments(); }
};

struct Command {
    QString group;    // "cache", "hub"; empty for a command of its own ("consolidate")
    QString name;     // "list"; for a command of its own, its name
    QString summary;  // one line in the usage
    unsigned shared = JsonOption;
    std::function<void(QCommandLineParser &)> addOptions;  // the command's own options and positional arguments
    std::function<int(const Invocation &)> run;             // returns the exit code
};

struct CommandGroup {
    QString name;
    QString summary;  // one line in the tool's usage
    QString footer;   // printed under the group's commands
};

class CommandTable final
{
public:
    void addGroup(CommandGroup group);
    void add(Command command);
    void add(const QVector<Command> &commands);

    // args: the command line without the program name. Returns the exit code.
    int run(const QStringList &args) const;
    QString usage() const;
    QString groupUsage(const QString &group) const;

private:
    int runCommand(const Command &command, const QStringList &args) const;
    const Command *find(const QString &group, const QString &name) const;
    const CommandGroup *findGroup(const QString &name) const;

    QVector<CommandGroup> m_groups;
    QVector<Command> m_commands;
};

}  // namespace ingot::cli
