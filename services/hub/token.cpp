#include "services/hub/token.h"

#include "services/util/atomicfile.h"

#include "services/hub/secretstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>

namespace ingot {

namespace {
struct TokenText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubConfig)
};
const QString kKeychainKey = QStringLiteral("huggingface-token");

QString readTokenFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.read(4096)).trimmed();
}
}  // namespace

QString ResolvedToken::describe() const
{
    switch (source) {
    case Source::None: return TokenText::tr("no token");
    case Source::HfTokenEnv: return QStringLiteral("HF_TOKEN");
    case Source::LegacyEnv: return QStringLiteral("HUGGING_FACE_HUB_TOKEN");
    case Source::Keychain: return TokenText::tr("the token saved in Ingot (system keychain)");
    case Source::TokenFile: return TokenText::tr("the token file %1").arg(location);
    }
    return {};
}

ResolvedToken resolveToken(const HubConfig &config, SecretStore *keychain, const QProcessEnvironment &env,
                           const std::atomic_bool *stop)
{
    ResolvedToken t;
    if (const QString v = env.value(QStringLiteral("HF_TOKEN")).trimmed(); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::HfTokenEnv;
        return t;
    }
    if (const QString v = env.value(QStringLiteral("HUGGING_FACE_HUB_TOKEN")).trimmed(); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::LegacyEnv;
        return t;
    }
    if (keychain) {
        QString v;
        SecretError error;
        if (keychain->read(kKeychainKey, &v, &error, stop) && !v.trimmed().isEmpty()) {
            t.token = v.trimmed();
            t.source = ResolvedToken::Source::Keychain;
            return t;
        }
        if (error.kind == SecretError::Kind::Unanswered || error.kind == SecretError::Kind::Failed)
            t.keychainError = error.message;  // and the token file, as where no keychain runs
    }
    if (const QString v = readTokenFile(config.tokenPath); !v.isEmpty()) {
        t.token = v;
        t.source = ResolvedToken::Source::TokenFile;
        t.location = config.tokenPath;
    }
    return t;
}

bool saveToken(const HubConfig &config, SecretStore *keychain, const QString &token, QString *where, QString *error)
{
    const QString clean = token.trimmed();
    if (clean.isEmpty() || clean.contains(QRegularExpression(QStringLiteral("\\s")))) {
        *error = TokenText::tr("That is not a token: it is empty or contains spaces.");
        return false;
    }
    SecretError kerr;
    if (keychain && keychain->write(kKeychainKey, clean, &kerr)) {
        *where = keychain->name();
        return true;
    }
    // No keychain service, or one that failed or did not answer in time: the token file huggingface_hub reads too,
    // readable by you alone.
    if (!writeFileAtomically(config.tokenPath, clean.toUtf8(), error, true))
        return false;
    *where = config.tokenPath;
    return true;
}

bool forgetToken(const HubConfig &config, SecretStore *keychain, QString *error)
{
    SecretError kerr;
    if (keychain)
        keychain->remove(kKeychainKey, &kerr);
    QFile file(config.tokenPath);
    if (file.exists() && !file.remove()) {
        *error = TokenText::tr("Could not remove the token file %1 (%2): remove it by hand to log out.")
                     .arg(config.tokenPath, file.errorString());
        return false;
    }
    // A keychain that answered with an error holds nothing of ours (none runs behind its bus name, say); one that
    // did not answer may still hold the token.
    if (kerr.kind == SecretError::Kind::Unanswered) {
        *error = TokenText::tr("The token file is gone, but the token saved in %1 may still be there (%2): log out "
                               "again later.").arg(keychain->name(), kerr.message);
        return false;
    }
    return true;
}

}  // namespace ingot
