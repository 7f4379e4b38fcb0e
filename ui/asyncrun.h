// Runs work off the UI thread and hands the result back on it, unless `context` is gone by then.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

namespace ingot {

template<class T>
void runAsync(QObject *context, std::function<T()> work, std::function<void(T)> done)
{
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcher<T>::finished, context, [watcher, done] {
        watcher->deleteLater();
        done(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

}  // namespace ingot
