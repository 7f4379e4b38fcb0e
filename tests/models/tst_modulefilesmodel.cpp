// The details pane's file list.
#include "models/cache/modulefilesmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace ingot;

class TestModuleFilesModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void filesAndNotes()
    {
        ModuleFilesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CacheModule m;
        CacheFile neff;
        neff.name = QStringLiteral("model.neff");
        neff.size = 2'000'000'000;
        neff.allocated = 4096;
        CacheFile link;
        link.name = QStringLiteral("model.hlo_module.pb");
        link.flags = CacheFile::Symlink | CacheFile::HubBlob | CacheFile::OutsideRoot;
        CacheFile broken;
        broken.name = QStringLiteral("compile_flags.json");
        broken.flags = CacheFile::Symlink | CacheFile::Broken;
        m.files << neff << link << broken;
        model.setModule(m, {{QStringLiteral("model.hlo_module.pb"), QStringLiteral("/hf/blobs/abc")}});
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.index(0, ModuleFilesModel::NoteColumn).data().toString().contains(QStringLiteral("sparse")));
        const QString linkNote = model.index(1, ModuleFilesModel::NoteColumn).data().toString();
        QVERIFY(linkNote.contains(QStringLiteral("Hugging Face hub")));
        QVERIFY(linkNote.contains(QStringLiteral("/hf/blobs/abc")));
        QVERIFY(model.index(2, ModuleFilesModel::NoteColumn).data().toString().contains(QStringLiteral("broken")));
        QCOMPARE(model.index(0, ModuleFilesModel::SizeColumn).data(ModuleFilesModel::SortRole).toLongLong(), 2'000'000'000LL);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestModuleFilesModel)
#include "tst_modulefilesmodel.moc"
