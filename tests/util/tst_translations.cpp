// The translations are current and complete: lupdate, run exactly as the build's update_translations runs it (the
// sources, include paths and options CMake writes next to INGOT_LUPDATE_PROJECT), over temporary copies of
// translations/ingot_zh_CN.ts and ingot_en.ts finds nothing new, nothing vanished and nothing unfinished; every
// translation keeps its source's placeholders; every plural source has its English forms; and the extraction
// itself is clean: no context lupdate cannot place (a tr() whose context at run time differs from the recorded one
// would never translate).
#include "tests/support/testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>

using namespace ingot::test;

namespace {

struct Message {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString type;          // the translation's type: "", "unfinished", "vanished", "obsolete"
    QStringList forms;     // the translation, or its numerus forms
    QString key() const { return context + QLatin1Char('\x1f') + source + QLatin1Char('\x1f') + comment; }
    QString where() const
    {
        return QStringLiteral("[%1] \"%2\"").arg(context.isEmpty() ? QStringLiteral("<empty context>") : context, source);
    }
};

// Every message of a .ts file; *error says why it could not be read.
QVector<Message> readTs(const QString &path, QString *error)
{
    QVector<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return out;
    }
    QXmlStreamReader x(&f);
    QString context;
    while (!x.atEnd()) {
        x.readNext();
        if (!x.isStartElement())
            continue;
        if (x.name() == QLatin1String("name")) {
            context = x.readElementText();
        } else if (x.name() == QLatin1String("message")) {
            Message m;
            m.context = context;
            m.numerus = x.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            while (!(x.isEndElement() && x.name() == QLatin1String("message")) && !x.atEnd()) {
                x.readNext();
                if (!x.isStartElement())
                    continue;
                if (x.name() == QLatin1String("source")) {
                    m.source = x.readElementText();
                } else if (x.name() == QLatin1String("comment")) {
                    m.comment = x.readElementText();
                } else if (x.name() == QLatin1String("translation")) {
                    m.type = x.attributes().value(QLatin1String("type")).toString();
                    if (!m.numerus) {
                        m.forms << x.readElementText();
                    }
                } else if (x.name() == QLatin1String("numerusform")) {
                    m.forms << x.readElementText();
                }
            }
            out << m;
        }
    }
    if (x.hasError())
        *error = QStringLiteral("%1: %2 at line %3").arg(path, x.errorString()).arg(x.lineNumber());
    return out;
}

// The placeholders of a text, sorted: %1 … %99 and %n (%L1 and %Ln count as %1 and %n).
QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("%L?(?:[1-9][0-9]?|n)"));
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured().remove(QLatin1Char('L'));
    std::sort(found.begin(), found.end());
    return found;
}

// "3 unfinished, 1 new": how many problems of each kind (the words before the first colon).
QString summary(const QStringList &problems)
{
    QMap<QString, int> kinds;
    for (const QString &p : problems)
        ++kinds[p.section(QLatin1Char(':'), 0, 0)];
    QStringList parts;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    return parts.join(QLatin1String(", "));
}

QString list(const QStringList &lines)
{
    const int shown = 40;
    QString text = lines.mid(0, shown).join(QLatin1String("\n  "));
    if (lines.size() > shown)
        text += QStringLiteral("\n  … and %1 more").arg(lines.size() - shown);
    return QStringLiteral("\n  ") + text;
}

}  // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

    QString m_lupdate;
    QStringList m_options;
    QTemporaryDir m_dir;
    QString m_lupdateOutput;  // of the zh_CN run

    // Runs lupdate as the build does into a copy of translations/<name>; returns the copy's path.
    QString update(const QString &name, const QStringList &extraOptions, QString *output)
    {
        const QString committed = QStringLiteral(INGOT_SOURCE_DIR "/translations/") + name;
        const QString copy = m_dir.filePath(name);
        QFile::remove(copy);
        if (!QFile::copy(committed, copy))
            return QString();
        QFile(copy).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        const ProgramRun r = runProgram(m_lupdate, QStringList{QStringLiteral("-project"), QStringLiteral(INGOT_LUPDATE_PROJECT)}
                                                       + extraOptions + m_options + QStringList{QStringLiteral("-ts"), copy});
        *output = QString::fromUtf8(r.out + r.err);
        return r.code == 0 ? copy : QString();
    }

    // The problems of an updated copy against the committed file: new, vanished or unfinished messages.
    QStringList staleness(const QString &name, const QString &copy)
    {
        QString error;
        const QVector<Message> before = readTs(QStringLiteral(INGOT_SOURCE_DIR "/translations/") + name, &error);
        const QVector<Message> after = readTs(copy, &error);
        if (!error.isEmpty())
            return {error};
        QSet<QString> beforeKeys, afterKeys;
        for (const Message &m : before)
            beforeKeys.insert(m.key());
        for (const Message &m : after)
            afterKeys.insert(m.key());
        QStringList problems;
        for (const Message &m : before) {
            if (m.type == QLatin1String("vanished") || m.type == QLatin1String("obsolete"))
                problems << QStringLiteral("obsolete (still in the file): %1").arg(m.where());
            else if (!afterKeys.contains(m.key()))
                problems << QStringLiteral("vanished (no longer in the sources): %1").arg(m.where());
        }
        for (const Message &m : after) {
            if (!beforeKeys.contains(m.key()))
                problems << QStringLiteral("new (not in the committed file): %1").arg(m.where());
            else if (m.type == QLatin1String("unfinished"))
                problems << QStringLiteral("unfinished: %1").arg(m.where());
        }
        return problems;
    }

private slots:
    void initTestCase()
    {
        m_lupdate = QStringLiteral(INGOT_LUPDATE);
        if (!QFileInfo(m_lupdate).isExecutable())
            m_lupdate = QStringLiteral("/usr/lib/qt6/bin/lupdate");
        if (!QFileInfo(m_lupdate).isExecutable())
            QSKIP("lupdate is not installed (Debian: qt6-l10n-tools)");
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(QStringLiteral(INGOT_LUPDATE_PROJECT)), INGOT_LUPDATE_PROJECT " is missing: run cmake");
        QFile options(QFileInfo(QStringLiteral(INGOT_LUPDATE_PROJECT)).absolutePath() + QStringLiteral("/lupdate-options.txt"));
        QVERIFY2(options.open(QIODevice::ReadOnly), qPrintable(options.fileName()));
        m_options = QString::fromUtf8(options.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(m_options.contains(QStringLiteral("-no-obsolete")));
    }

    // lupdate places every tr() in a context: none it cannot qualify, none in a class without Q_OBJECT (whose tr()
    // at run time is its base class's, or a free function's).
    void extractionIsClean()
    {
        QString output;
        const QString copy = update(QStringLiteral("ingot_zh_CN.ts"), {}, &output);
        QVERIFY2(!copy.isEmpty(), qPrintable(QStringLiteral("lupdate failed:\n") + output));
        QStringList warnings;
        static const QRegularExpression bad(
            QStringLiteral("lacks Q_OBJECT|Qualifying with unknown|Ignoring definition of undeclared|Cannot invoke tr\\(\\)"
                           "|Discarding unconsumed|circular inclusion|Cannot open"));
        for (const QString &line : output.split(QLatin1Char('\n')))
            if (bad.match(line).hasMatch())
                warnings << line;
        QVERIFY2(warnings.isEmpty(), qPrintable(QStringLiteral("lupdate warns:") + list(warnings)));

        QString error;
        const QVector<Message> messages = readTs(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 1000, qPrintable(QString::number(messages.size())));  // the sources were all read
        QStringList misplaced;
        static const QRegularExpression context(QStringLiteral("^(main|ingot(::[A-Za-z_][A-Za-z0-9_]*)+)$"));
        for (const Message &m : messages)
            if (!context.match(m.context).hasMatch())
                misplaced << m.where();
        QVERIFY2(misplaced.isEmpty(), qPrintable(QStringLiteral("messages in a context that is no class of Ingot's:") + list(misplaced)));
    }

    // translations/ingot_zh_CN.ts is what lupdate makes of the sources today, and every message is translated.
    void chineseIsCurrentAndComplete()
    {
        QString output;
        const QString copy = update(QStringLiteral("ingot_zh_CN.ts"), {}, &output);
        QVERIFY2(!copy.isEmpty(), qPrintable(QStringLiteral("lupdate failed:\n") + output));
        const QStringList problems = staleness(QStringLiteral("ingot_zh_CN.ts"), copy);
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("translations/ingot_zh_CN.ts is not current and complete (%1; "
                                           "cmake --build build --target update_translations, then translate):")
                                .arg(summary(problems)) + list(problems)));
    }

    // A translation that drops or adds a %1 shows the wrong value, or none.
    void placeholdersMatch_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("zh_CN") << QStringLiteral("ingot_zh_CN.ts");
        QTest::newRow("en") << QStringLiteral("ingot_en.ts");
    }
    void placeholdersMatch()
    {
        QFETCH(QString, file);
        QString error;
        const QVector<Message> messages = readTs(QStringLiteral(INGOT_SOURCE_DIR "/translations/") + file, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList wrong;
        for (const Message &m : messages) {
            if (!m.type.isEmpty())
                continue;  // unfinished or obsolete: reported by the tests above
            const QStringList expected = placeholders(m.source);
            for (const QString &form : m.forms) {
                // One plural form may leave the number out ("one file"); the others say it. A source without %n (a
                // spin box's suffix, " step(s)", whose number the box shows) has no number to leave out.
                QStringList got = placeholders(form);
                if (m.numerus && expected.contains(QStringLiteral("%n")) && !got.contains(QStringLiteral("%n")) && m.forms.size() > 1 &&
                    &form == &m.forms.first()) {
                    got << QStringLiteral("%n");
                    std::sort(got.begin(), got.end());
                }
                if (got != expected)
                    wrong << QStringLiteral("%1: %2 has %3, the source %4")
                                 .arg(m.where(), form, got.join(QLatin1Char(' ')), expected.join(QLatin1Char(' ')));
            }
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(QStringLiteral("placeholders differ:") + list(wrong)));
    }

    // Without an English plural form "%n file(s)" shows as "1 file(s)": translations/ingot_en.ts holds the forms of
    // every plural source (lupdate -pluralonly), all finished.
    void everyPluralHasEnglishForms()
    {
        QString output;
        const QString copy = update(QStringLiteral("ingot_en.ts"), {QStringLiteral("-pluralonly")}, &output);
        QVERIFY2(!copy.isEmpty(), qPrintable(QStringLiteral("lupdate failed:\n") + output));
        QStringList problems = staleness(QStringLiteral("ingot_en.ts"), copy);
        QString error;
        const QVector<Message> messages = readTs(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!messages.isEmpty());
        for (const Message &m : messages) {
            if (!m.numerus)
                problems << QStringLiteral("not a plural message: %1").arg(m.where());
            else if (m.forms.size() != 2 || m.forms.contains(QString()))
                problems << QStringLiteral("needs two forms (one, other): %1").arg(m.where());
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("translations/ingot_en.ts is not current and complete (%1; "
                                           "cmake --build build --target update_translations, then write the English "
                                           "singular and plural):").arg(summary(problems)) + list(problems)));
    }

    // The test's own parts: a placeholder dropped or added is seen, %L1 counts as %1.
    void placeholderParsing()
    {
        QCOMPARE(placeholders(QStringLiteral("%2 of %1, %n file(s), %L1")),
                 (QStringList{QStringLiteral("%1"), QStringLiteral("%1"), QStringLiteral("%2"), QStringLiteral("%n")}));
        QCOMPARE(placeholders(QStringLiteral("100% sure")), QStringList());
        QCOMPARE(placeholders(QStringLiteral("over %Ln step(s)")), QStringList{QStringLiteral("%n")});
        QVERIFY(placeholders(QStringLiteral("%1 and %2")) != placeholders(QStringLiteral("%1 和 %1")));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
