// HubCachePage, its account part: the token read (off the UI thread: the keychain may answer slowly, or not at all
// within its timeout), who you are, your access to each repo, logging in and out (services/hub/hublogin.h).
#include "ui/hub/hubcachepage.h"
#include "ui/hub/hubpageparts.h"

#include "services/hub/cacherepo.h"
#include "services/hub/hublogin.h"
#include "services/hub/token.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>

namespace ingot {

using namespace hubpage;

namespace {
// The Hub could not be reached (no route, refused, DNS, TLS, no answer in time): nothing says who may read what.
bool isNetworkError(const HubError &e)
{
    return e.kind == HubError::Kind::Network || e.kind == HubError::Kind::Timeout;
}

// The Hub answered that this token (or none) may not read the repo, or that there is no such repo for it.
bool isAccessError(const HubError &e)
{
    using K = HubError::Kind;
    return e.kind == K::Unauthorized || e.kind == K::Forbidden || e.kind == K::Gated || e.kind == K::NotFound;
}

// What the page needs before it can ask the Hub anything: the token (the keychain may answer slowly, over D-Bus)
// and the cache repo in use (a file in $HF_HOME).
struct PageStart {
    ResolvedToken token;
    CacheRepoChoice choice;
};
}  // namespace

// The account line with log in/out, and the offline banner below it.
QBoxLayout *HubCachePage::buildAccountBar()
{
    m_account->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_account->setTextFormat(Qt::RichText);  // every piece put in it goes through html()
    m_offline->setStyleSheet(QStringLiteral("QLabel { background: #fff4e0; color: #6b4300; padding: 4px 8px; border-radius: 3px; }"));
    m_offline->setText(tr("HF_HUB_OFFLINE is set: Ingot sends no request to the Hub. Unset it to browse Hub caches."));
    m_offline->hide();
    connect(m_loginButton, &QPushButton::clicked, this, &HubCachePage::login);
    connect(m_logoutButton, &QPushButton::clicked, this, &HubCachePage::logout);
    auto *accountRow = new QHBoxLayout;
    accountRow->addWidget(m_account, 1);
    accountRow->addWidget(m_loginButton);
    accountRow->addWidget(m_logoutButton);
    return accountRow;
}

void HubCachePage::refresh()
{
    const quint64 gen = ++m_generation;
    m_config = HubConfig::fromEnvironment();
    m_haveMe = false;
    m_offline->setVisible(m_config.offline);
    m_account->setText(tr("Reading the token…"));
    const HubConfig cfg = m_config;
    const std::shared_ptr<SecretStore> kc = m_keychain;
    // The keychain answers within its timeout (else the token file is read, and the account line says why); leaving
    // the page stops the wait.
    runTask(this, [cfg, kc](TaskControl &c) {
        return PageStart{resolveToken(cfg, kc.get(), QProcessEnvironment::systemEnvironment(), c.stopFlag()), resolveCacheRepo(cfg)};
    }, [this, gen](PageStart start) {
        if (gen == m_generation)
            applyStart(start.token, start.choice);
    });
}

void HubCachePage::applyStart(const ResolvedToken &token, const CacheRepoChoice &choice)
{
    const QString previous = currentRepo();
    const QStringList repos = fillRepoList(choice);
    m_token = token.token;
    m_tokenSource = token.describe();
    m_keychainNote = token.keychainError.isEmpty()
                         ? QString()
                         : tr("The system keychain could not be read, so the token file was: %1").arg(token.keychainError);
    updateAccount();
    for (const QString &r : repos)
        checkRepoAccess(r);
    selectRepo(previous.isEmpty() || !repos.contains(previous) ? choice.repo : previous);
    Q_EMIT ready();
}

// The account line (rich text), with why the keychain was not used below it.
void HubCachePage::showAccount(const QString &text)
{
    m_account->setText(m_keychainNote.isEmpty() ? text : text + QStringLiteral("<br>") + html(m_keychainNote));
}

void HubCachePage::updateAccount()
{
    m_logoutButton->setEnabled(!m_token.isEmpty());
    if (m_config.offline) {
        showAccount(tr("Offline (HF_HUB_OFFLINE) — %1").arg(html(m_config.endpoint)));
        return;
    }
    if (m_token.isEmpty()) {
        showAccount(tr("Not logged in to %1: public repos only. Log in to read private repos and to write.").arg(html(m_config.endpoint)));
        Q_EMIT accountChanged();
        return;
    }
    showAccount(tr("Checking the token…"));
    const HubClient hub = makeClient();
    const quint64 gen = m_generation;
    runTask(this, [hub](TaskControl &c) {
        HubError e;
        WhoAmI me = hub.whoami(&e, c.stopFlag());
        return qMakePair(me, e);
    }, [this, gen](QPair<WhoAmI, HubError> r) {
        if (gen != m_generation)
            return;
        if (isNetworkError(r.second)) {
            showAccount(tr("Could not reach %1 to check the token from %2: %3")
                            .arg(html(m_config.endpoint), html(m_tokenSource), html(r.second.message)));
        } else if (isAccessError(r.second)) {
            showAccount(tr("Token from %1 refused: %2").arg(html(m_tokenSource), html(r.second.message)));
        } else if (!r.second.ok()) {
            showAccount(tr("Could not check the token from %1: %2").arg(html(m_tokenSource), html(r.second.message)));
        } else {
            m_me = r.first;
            m_haveMe = true;
            // The name, orgs and role are the Hub's text: escaped (a bidi override in a name cannot turn the
            // line around) and HTML-escaped (markup in them stays text).
            QStringList orgs;
            for (const QString &o : std::as_const(m_me.orgs))
                orgs << html(o);
            const QString orgList = orgs.isEmpty() ? QString() : tr(" (orgs: %1)").arg(orgs.join(QStringLiteral(", ")));
            showAccount(m_me.role.isEmpty()
                            ? tr("Logged in as <b>%1</b>%2 — a token from %3 — %4")
                                  .arg(html(m_me.name), orgList, html(m_tokenSource), html(m_config.endpoint))
                            : tr("Logged in as <b>%1</b>%2 — %3 token from %4 — %5")
                                  .arg(html(m_me.name), orgList, html(m_me.role), html(m_tokenSource), html(m_config.endpoint)));
            for (int i = 0; i < m_repos->count(); ++i)
                checkRepoAccess(m_repos->item(i)->data(RepoIdRole).toString());
        }
        Q_EMIT accountChanged();
    });
}

void HubCachePage::checkRepoAccess(const QString &repo)
{
    if (m_config.offline)
        return;
    const HubClient hub = makeClient();
    const quint64 gen = m_generation;
    runTask(this, [hub, repo](TaskControl &c) {
        HubError e;
        RepoInfo info = hub.repoInfo(repo, QString(), &e, c.stopFlag());
        return qMakePair(info, e);
    }, [this, gen, repo](QPair<RepoInfo, HubError> r) {
        if (gen != m_generation)
            return;
        for (int i = 0; i < m_repos->count(); ++i) {
            QListWidgetItem *item = m_repos->item(i);
            if (item->data(RepoIdRole).toString() != repo)
                continue;
            QString access;
            bool canWrite = false;
            if (isNetworkError(r.second)) {
                access = tr("unreachable: %1").arg(r.second.message);
            } else if (isAccessError(r.second)) {
                access = tr("no access: %1").arg(r.second.message);
            } else if (!r.second.ok()) {
                access = tr("error: %1").arg(r.second.message);
            } else {
                const QString ns = repo.section(QLatin1Char('/'), 0, 0);
                canWrite = m_haveMe && m_me.role != QLatin1String("read") && (ns == m_me.name || m_me.orgs.contains(ns));
                access = tr("%1, %2").arg(r.first.isPrivate ? tr("private") : tr("public"),
                                          canWrite ? tr("you can write") : tr("read-only for you"));
            }
            item->setData(CanWriteRole, canWrite);
            item->setText(displayName(repo) + QLatin1Char('\n') + access);
        }
    });
}

void HubCachePage::login()
{
    auto *dlg = new QInputDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Log in to the Hub"));
    dlg->setLabelText(tr("Hugging Face access token (from your Hub settings). Ingot keeps it in the system keychain, "
                         "or in %1 (readable by you only) where no keychain runs.").arg(m_config.tokenPath));
    dlg->setTextEchoMode(QLineEdit::Password);
    connect(dlg, &QInputDialog::textValueSelected, this, &HubCachePage::saveLogin);
    dlg->open();
}

void HubCachePage::saveLogin(const QString &token)
{
    if (token.trimmed().isEmpty())
        return;
    const HubConfig cfg = m_config;
    const std::shared_ptr<SecretStore> kc = m_keychain;
    runTask(this, [cfg, kc, token](TaskControl &c) {
        const HubLogin login = logIn(cfg, kc.get(), token, c.stopFlag());
        return login.error.ok() ? login.saveError : login.error.message;
    }, [this](QString error) {
        if (!error.isEmpty())
            warn(tr("Log in"), error);
        refresh();
    });
}

void HubCachePage::logout()
{
    const HubConfig cfg = m_config;
    const std::shared_ptr<SecretStore> kc = m_keychain;
    runTask(this, [cfg, kc](TaskControl &) {
        QString error;
        forgetToken(cfg, kc.get(), &error);
        return error;
    }, [this](QString error) {
        if (!error.isEmpty())
            warn(tr("Log out"), error);
        refresh();
    });
}

}  // namespace ingot
