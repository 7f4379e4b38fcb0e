// What the launch form's tests share (tst_launchform without a page, tst_joblauncher through the launcher page): a
// settings store of the test's own without presets, a valid job here, and a check's messages by field.
#pragma once

#include "services/jobs/jobspec.h"
#include "services/jobs/jobvalidate.h"
#include "services/util/appsettings.h"

#include <QCoreApplication>
#include <QStringList>

namespace ingot::test {

// The settings of this test alone (QSettings under `application`), with no presets saved.
inline void useOwnLaunchSettings(const QString &application)
{
    QCoreApplication::setOrganizationName(QStringLiteral("IngotTest"));
    QCoreApplication::setApplicationName(application);
    AppSettings::setJobPresets({});
}

// A valid job here: tiny, 2 processes, tp 2, an interpreter named explicitly (planning does not need torch), and an
// empty compile cache of its own below `dir`.
inline JobSpec tinyTp2(const QString &dir)
{
    JobSpec s;
    s.python = QStringLiteral("/usr/bin/python3");
    s.nprocPerNode = 2;
    s.tensorParallel = 2;
    s.compileCacheUrl = dir + QStringLiteral("/cache-empty");
    return s;
}

// The messages of the problems about `field`, in order.
inline QStringList messagesOf(const QVector<JobProblem> &problems, const QString &field)
{
    QStringList out;
    for (const JobProblem &p : problems)
        if (p.field == field)
            out << p.message;
    return out;
}

}  // namespace ingot::test
