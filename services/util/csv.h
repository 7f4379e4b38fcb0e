// CSV as RFC 4180 writes it: fields separated by commas, a field holding a comma, a quote, CR or LF quoted with its
// quotes doubled; lines end with CRLF. Numbers are the caller's, in the C locale.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ingot {

QString csvField(const QString &field);
QByteArray csvField(const QByteArray &field);  // the same, on UTF-8 bytes
// One record, CRLF-terminated.
QString csvRecord(const QStringList &fields);

}  // namespace ingot
