// CSV as RFC 4180 writes it: fields separated by commas, a field holding a comma, a quote, CR or LF quoted with its
// quotes doubled; lines end with CRLF. Numbers are the caller's, in the C locale.
#pragma once

#include <QString>
#include <QStringList>

namespace ingot {

QString csvField(const QString &field);
// One record, CRLF-terminated.
QString csvRecord(const QStringList &fields);

}  // namespace ingot
