// What the Hub page's two source files share (hubcachepage.cpp: repos, files and lookups; hubcachepageaccount.cpp:
// the token, the account and access to each repo). Internal to ui/hub.
#pragma once

#include "services/util/names.h"

#include <QString>

namespace ingot::hubpage {

enum RepoRole { RepoIdRole = Qt::UserRole + 1, CanWriteRole };

// Text from the Hub, the environment or a file, for a rich-text label: control and bidi characters escaped, then
// HTML-escaped, so it reads as the characters it is and never as markup.
inline QString html(const QString &text)
{
    return displayName(text).toHtmlEscaped();
}

}  // namespace ingot::hubpage
