"""Secrets never reach storage: credentials are replaced with a visible marker `[REDACTED:<kind>]`
before a message or memory is stored, and before ids are computed, so not even a hash of a secret
is kept.

Four kinds of evidence, each found as a span of the text, merged, then replaced:
- **Provider token shapes**: the patterns of Yelp's detect-secrets plugins (AWS key ids, GitHub,
  GitLab, Slack, Stripe, OpenAI, Discord, Telegram, Twilio, SendGrid, Mailchimp, npm, PyPI, Square,
  Azure storage, JWT, IBM, Cloudant, SoftLayer, Artifactory), read from the installed package so
  they follow its releases, plus the providers it lacks (Anthropic, Google, Hugging Face, Vault,
  DigitalOcean, Shopify, Linear, Postman, Databricks, Grafana, New Relic, age, GitHub fine-grained
  tokens, Stripe webhook secrets, Sentry, PlanetScale, Pulumi, RubyGems, Terraform Cloud,
  Supabase, Mailgun, Brevo, Atlassian, GitLab runner tokens, Fly.io; shapes as gitleaks lists
  them) and whole private-key blocks (detect-secrets reports only their header line).
- **AWS secret access keys**, which have no prefix: a 40-character key after an AWS key id in the
  same message (`AKIA… / <key>`, `(secret <key>)`) or after an AWS secret label.
- **Labelled values**: `password=…`, `DB_PASSWORD: …`, `"client_secret": "…"`, `Authorization:
  Bearer …`, `postgres://user:…@host`, "the grafana admin password is …", `mysql -p…`. A value
  after `=`/`:`/`is` must look like a credential (letters with digits or symbols, not a placeholder
  such as `${DB_PASSWORD}`, `<your key>`, `xxxxxxxx`, `os.environ[...]`). Letters alone are a
  password in an environment variable (`DB_PASSWORD=supersecret`), a quoted literal, or when
  they are no English word ("my password is bluefrog", not "the password is wrong":
  pyspellchecker's word list decides). A value that follows a label with no operator ("webhook
  signing secret …", "the token for the metrics endpoint …") must also be a high-entropy string
  by detect-secrets' Shannon entropy measure.
- **A message about a credential** ("the key leaked in the build output, it was X"): a
  random-looking token of mixed case and digits anywhere in it.

Random-looking strings with neither a known shape, nor a label, nor a credential word in their
message are kept: in technical chat they are commit SHAs, digests, UUIDs and base64 in pasted code far more often than secrets. What this costs
and catches is measured on the labelled corpus in tests/data/secret_corpus.jsonl
(`python bench/redaction.py`; the README has the figures).
"""
from __future__ import annotations

import base64
import binascii
import re
import threading
from dataclasses import dataclass

from detect_secrets.filters.heuristic import (is_sequential_string, is_templated_secret)
from detect_secrets.plugins import (artifactory, aws, azure_storage_key, basic_auth, cloudant,
                                    discord, github_token, gitlab_token, ibm_cloud_iam,
                                    ibm_cos_hmac, jwt, mailchimp, npm, openai, pypi_token,
                                    sendgrid, slack, softlayer, square_oauth, stripe,
                                    telegram_token, twilio)
from detect_secrets.plugins.high_entropy_strings import (Base64HighEntropyString,
                                                         HexHighEntropyString)

from .text import english_word

MARKER = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    group: int | str = 0  # the part of the match that is the secret
    extend: bool = False  # the pattern may stop short of the token's end (detect-secrets' do)
    # how the value is checked: token | credential | strong | unknown-word | assigned | any |
    # password | pin | codes | hash | words | phrase | basic-auth
    value: str = "token"
    # What the text must hold for the rule to have a chance, checked once per text so that the
    # many chat lines without any are cheap: "token" a run of 16+ token characters
    # (_LONG_TOKEN), "label" a label word (_has_label_hint), "url" a "://", "at" an "@",
    # "colons" four colons, "pin" a word of _PIN_HINTS, "ssn" / "card" / "iban" their shape
    # (_SSN_HINT, _CARD_HINT, _IBAN_HINT), "bank" / "id" a word of _BANK_HINTS / _ID_HINTS,
    # "one" " one ", "dollar" a "$", "otp"
    # a word of a one-time password's seed, "" nothing.
    gate: str = "token"


_LONG_TOKEN = re.compile(r"[A-Za-z0-9_+/=.:-]{16,}")
# Words without which no labelled value can match, looked for as plain substrings of the
# lowercased text (a case-insensitive regex alternation of them cost more than every rule
# behind it: 9 of 15 µs a chat message).
_LABEL_HINTS = ("pass", "pwd", "pw", "secret", "token", "cred", "login", "bearer", "authoriz",
                "mysql", "mariadb", "cloudant", "softlayer", "ibm", "iam", "aws", "psk",
                "pre-shared", "preshared", "recovery code", "backup code", "curl", "redis-cli",
                "wpa", "wifi", "wi-fi", "ssid", "wlan", "openssl", "phrase", "mnemonic",
                "seed words")
# a password's name in other languages, as parts of words (_FOREIGN_LABEL has them whole)
_FOREIGN_PASSWORD_PARTS = ("contrase", "clave", "kennwort", "senha", "palavra", "parola",
                           "wachtwoord", "senord", "adgangskode", "salasana", "hasło", "haslo",
                           "heslo", "jelsz", "ifre", "пароль", "mdp")
_LABEL_HINTS += _FOREIGN_PASSWORD_PARTS
_KEY_HINT = re.compile(r"(?:api|access|auth|private|account|unseal|encryption|master|signing|"
                       r"recovery|licen[cs]e).?key")


def _has_label_hint(text: str) -> bool:
    lower = text.lower()
    return any(hint in lower for hint in _LABEL_HINTS) or (
        "key" in lower and _KEY_HINT.search(lower) is not None)

# --- provider shapes from detect-secrets --------------------------------------------------------
# (plugin class, our kind, the group holding the secret when the pattern has context around it,
#  whether its patterns need a label word)
_DETECT_SECRETS = [
    (aws.AWSKeyDetector, "aws-access-key", None, False),
    (artifactory.ArtifactoryDetector, "artifactory-token", None, False),
    (azure_storage_key.AzureStorageKeyDetector, "azure-storage-key", None, False),
    (basic_auth.BasicAuthDetector, "url-password", 1, False),
    (cloudant.CloudantDetector, "cloudant-key", 1, True),
    (discord.DiscordBotTokenDetector, "discord-token", None, False),
    (github_token.GitHubTokenDetector, "github-token", None, False),
    (gitlab_token.GitLabTokenDetector, "gitlab-token", None, False),
    (ibm_cloud_iam.IbmCloudIamDetector, "ibm-key", 1, True),
    (ibm_cos_hmac.IbmCosHmacDetector, "ibm-key", 1, True),
    (jwt.JwtTokenDetector, "jwt", None, False),
    (mailchimp.MailchimpDetector, "mailchimp-key", None, False),
    (npm.NpmDetector, "npm-token", 1, False),
    (openai.OpenAIDetector, "openai-key", None, False),
    (pypi_token.PypiTokenDetector, "pypi-token", None, False),
    (sendgrid.SendGridDetector, "sendgrid-key", None, False),
    (slack.SlackDetector, "slack-token", None, False),
    (softlayer.SoftlayerDetector, "softlayer-key", 1, True),
    (square_oauth.SquareOAuthDetector, "square-secret", None, False),
    (stripe.StripeDetector, "stripe-key", None, False),
    (telegram_token.TelegramBotTokenDetector, "telegram-token", None, False),
    (twilio.TwilioKeyDetector, "twilio-key", None, False),
]


def _from_detect_secrets() -> list[_Rule]:
    rules = []
    for plugin, kind, group, needs_label in _DETECT_SECRETS:
        for pattern in plugin.denylist:
            if kind == "aws-access-key" and pattern.groups:  # its "aws … key '<40>'" pattern
                rules.append(_Rule("aws-secret-key", pattern, 1, value="strong", gate="label"))
            elif kind == "url-password":
                rules.append(_Rule(kind, pattern, 1, value="any", gate="url"))
            elif kind == "artifactory-token":  # the pattern includes the delimiters around it
                inner = pattern.pattern.replace("(?:\\s|=|:|\"|^)", "(?:(?<=[\\s=:\"])|^)", 1)
                inner = inner.replace("(?:\\s|\"|$)", "(?=[\\s\"]|$)", 1)
                rules.append(_Rule(kind, re.compile(inner)))
            else:
                rules.append(_Rule(kind, pattern, group if group and pattern.groups else 0,
                                   extend=group is None, gate="label" if needs_label else "token"))
    return rules


# --- providers detect-secrets lacks, and whole private keys -------------------------------------
_OURS = [
    ("private-key", r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[A-Z0-9 ]*"
                    r"PRIVATE KEY(?: BLOCK)?-----|\Z)"),
    ("private-key", r"PuTTY-User-Key-File-\d.*?(?:Private-MAC: [0-9a-f]+|\Z)"),
    ("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{20,}"),
    ("openai-key", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
    ("stripe-key", r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("github-token", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("slack-token", r"xox[abposre]-[A-Za-z0-9-]{10,}"),
    ("slack-token", r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    ("google-api-key", r"AIza[0-9A-Za-z_-]{35}"),
    ("huggingface-token", r"hf_[A-Za-z]{30,}"),
    ("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}"),
    ("vault-token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
    ("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("linear-key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
    ("postman-key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("databricks-token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("grafana-token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("grafana-token", r"glc_[A-Za-z0-9+/]{32,}={0,2}"),
    ("newrelic-key", r"NRA[KS]-[A-Z0-9]{27}"),
    ("npm-token", r"npm_[A-Za-z0-9]{36}"),
    # (its prefix alone tells it: a key pasted with a wrong letter or two is still one, found
    # 6 Dec, twenty-second session, kept whole for a "B" outside bech32's letters)
    ("age-key", r"AGE-SECRET-KEY-1[0-9A-Z]{40,}"),
    ("doppler-token", r"dp\.(?:st|ct|sa|scim|audit)\.[A-Za-z0-9_.-]{40,}"),
    ("jwt", r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    # providers found missing from outside (26 Nov; gitleaks' rules give the shapes): a Stripe
    # webhook signing secret pasted from a CI log reached memory
    ("stripe-webhook-secret", r"whsec_[A-Za-z0-9]{32,}"),
    ("sentry-token", r"sntry[su]_[A-Za-z0-9+/=_-]{40,}"),
    ("planetscale-token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}"),
    ("pulumi-token", r"pul-[a-f0-9]{40}"),
    ("rubygems-key", r"rubygems_[a-f0-9]{48}"),
    ("terraform-token", r"[A-Za-z0-9]{6,}\.atlasv1\.[A-Za-z0-9_=-]{30,}"),
    ("supabase-token", r"sbp_[a-f0-9]{40}"),
    # (Mailgun's own keys are base 36, as its docs' "key-3ax6xnjp29jd6fds4gc373sgvjxteol0")
    ("mailgun-key", r"(?<![\w-])key-(?=[a-z]*[0-9])[a-z0-9]{32}(?![\w-])"),
    ("notion-token", r"ntn_[0-9]{11}[A-Za-z0-9]{35,}"),
    ("sendinblue-key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("atlassian-token", r"ATATT3[A-Za-z0-9_=-]{150,}"),
    ("gitlab-token", r"gl(?:rt|dt|ptt|cbt|imt|ft|soat|agent)-[A-Za-z0-9_-]{20,}"),
    ("flyio-token", r"fm[12][ar]?_[A-Za-z0-9+/=_-]{100,}"),
    # a Discord webhook's URL is its credential: whoever holds it posts as the webhook
    ("discord-webhook", r"(?<=/api/webhooks/)\d{15,22}/[A-Za-z0-9_-]{50,}"),
    # found from outside (27 Nov, seventh session), pasted in an ops channel and kept whole:
    # a Sentry DSN's key (whoever holds it sends events to the project: "https://<32 hex>@
    # o450123.ingest.sentry.io/5512345"; a legacy DSN's ":secret" is a URL password already),
    # and an Azure shared access signature's signature in a blob URL ("?sv=…&sig=…")
    ("sentry-dsn", r"(?<=://)[a-f0-9]{32}(?=(?::[a-f0-9]{32})?@[\w.-]+(?::\d+)?/\d+\b)"),
    ("azure-sas", r"(?<=[?&]sig=)[A-Za-z0-9%+/=]{20,}"),
    # a presigned S3 or GCS URL's signature (whoever holds the URL reads the object until it
    # expires: found 5 Dec, fifteenth session, with only its access key id redacted)
    ("presigned-url", r"(?<=[?&]X-Amz-Signature=)[A-Fa-f0-9]{64}|"
                      r"(?<=[?&]X-Goog-Signature=)[A-Fa-f0-9]{64,}"),
    # found from outside (4 Dec, twelfth session), pasted with no label a rule reads; shapes as
    # gitleaks' rules give them
    ("onepassword-token", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
    ("netlify-token", r"(?<![\w-])nfp_[A-Za-z0-9]{36,}"),
    ("resend-key", r"(?<![\w-])re_(?=[A-Za-z_]*\d)[A-Za-z0-9]{8}_[A-Za-z0-9]{24}(?![\w-])"),
    ("sonarqube-token", r"(?<![\w-])sq[pua]_[a-f0-9]{40}(?![\w-])"),
    ("airtable-token", r"(?<![\w-])pat[A-Za-z0-9]{14}\.[a-f0-9]{64}(?![\w-])"),
    ("groq-key", r"(?<![\w-])gsk_[A-Za-z0-9]{52}(?![\w-])"),
    ("replicate-token", r"(?<![\w-])r8_[A-Za-z0-9]{37}(?![\w-])"),
    ("figma-token", r"(?<![\w-])figd_[A-Za-z0-9_-]{40,}"),
    ("heroku-key", r"(?<![\w-])HRKU-AA[A-Za-z0-9_-]{58}(?![\w-])"),
]

# --- labelled values ----------------------------------------------------------------------------
# A credential label, possibly inside a longer identifier (DB_PASSWORD, PGPASSWORD, X-API-Key,
# SecretAccessKey); in prose only the unambiguous words (not "pass", which is mostly a verb).
_LABEL_CORE = (r"(?:password|passwd|passphrase|secret|token|api[_ -]?key|apikey|"
               r"access[_ -]?key|auth[_ -]?key|private[_ -]?key|client[_ -]?secret|credentials?|"
               # an Azure connection string's key, of any length (detect-secrets' shape wants
               # the 88 characters of a storage account's: a shorter one was stored and quoted)
               r"account[_ -]?key|"
               r"(?<![A-Za-z0-9])psk|pre-?shared[ -]key|(?:recovery|backup) codes?|"
               r"(?:unseal|encryption|master|signing|recovery|licen[cs]e|secret)[_ -]?keys?)")
_LABEL_WORD = _LABEL_CORE + r"[A-Za-z0-9_-]*"
# `pass`, `pwd` and `pw` only as whole parts of an identifier (ansible_become_pass, PWD, db-pw).
_LABEL = (r"(?P<label>" + _LABEL_WORD +
          r"|(?:(?<![A-Za-z0-9])|(?<=[_-]))(?:pass|pwd|pw)(?![A-Za-z0-9]))")
# ("pass" after what it opens is the noun: "DB pass for the replica is X", "root pass: X")
_PROSE_LABEL = (r"(?P<label>" + _LABEL_WORD + r"|(?<![A-Za-z0-9])pw(?![A-Za-z0-9])|"
                r"(?:" + "|".join(rf"(?<=\b{w} )" for w in ("db", "database", "root", "admin",
                                                             "sudo", "wifi", "vpn", "ssh",
                                                             "account", "user"))
                + r")pass\b)")
# Before a value of letters only, the identifier must end with the credential word (not
# `tokenizer: wordpiece`, `password_hash: bcrypt`).
_LETTERS_LABEL = (r"(?P<label>" + _LABEL_CORE + r"|(?:(?<![A-Za-z0-9])|(?<=[_-]))(?:pass|pwd|pw))"
                  r"(?![A-Za-z0-9_-])")
# In prose a value of letters only is taken after a password's label alone ("the secret to fast
# builds is caching" is advice).
_PASSWORD_PROSE_LABEL = r"(?P<label>\b(?:password|passwd|passphrase|pw)\b)"
# The value: up to a space, quote, comma or closing bracket, or a semicolon or ampersand that
# starts the next value (`?token=X&user=bob`, `Password=X;Server=db`); one inside it stays in it
# ("Tr0ub4dor&3": cut at the "&", the redaction left "&3" beside its marker).
_INNER_SEP = r"[;&](?![A-Za-z_][\w.-]*=)(?=[^\s\"'`,;&<>)\]}])"
_VALUE = (r"(?P<secret>(?:[^\s\"'`,;&<>)\]}]|" + _INNER_SEP + r")+"
          r"(?:[^\s\"'`,;&)\]}]*[^\s\"'`,;&.)\]}:!?])?)")
# The same, holding a digit or a symbol (so the regex itself moves on past plain words).
_CREDENTIAL = r"(?=[^\s\"'`,;&]*[0-9!@#$%^&*?~+=/\\|])" + _VALUE
# A value of letters only ("letmein", "CorrectHorseBattery"): after "password is" a credential
# only if it is no English word (_unknown_word), which is what follows it in chat far more often.
# (a sentence's full stop may follow it: "Secret: StormLemonViolet." as an app's card ends)
_LETTERS = r"(?P<secret>[A-Za-z]{5,64})(?![\w@/:+=-]|\.[\w@/])"
# A random-looking token of 16+ characters with a digit in it.
_RANDOM = (r"(?P<secret>(?=[A-Za-z0-9+/=_.~-]*[0-9])[A-Za-z0-9+/=_~-][A-Za-z0-9+/=_.~-]{14,}"
           r"[A-Za-z0-9+/=_~-])")
_QUOTE = r"[\"'`*\]]*"
# "(expires Friday)", or which of several: "vault unseal key 1 of 3: <hex>", "recovery key #2:"
# (each was stored and quoted back)
_ASIDE = r"(?:[ \t]*\([^()\n]{1,30}\)|[ \t]+#?\d{1,2}(?:[ \t]*(?:of|/)[ \t]*\d{1,2})?)?"
# "password for the staging db", "token for the endpoint": what the credential is for, led by a
# preposition; "password manager migration ticket is OPS-4411" and "token refresh fix landed in
# <sha>" name something else.
_WORDS = (r"(?:[ \t]+(?:for|of|on|to|at|from|in|we|i|you|that|now|here)\b"
          r"(?:[ \t]+[\w.@/-]+){0,4}?)?")
# What a password is called, ending its noun: "the admin password" but not "the password
# manager", "the password hash", "the password policy".
_PASSWORD_NOUN = (r"(?P<label>password|passwd|passphrase|pw|pin)\b"
                  r"(?![ \t]+(?!for\b|until\b|on\b|to\b|in\b|now\b|from\b|at\b|this\b|"
                  r"today\b|when\b|and\b|but\b|so\b)[A-Za-z])")
# A password's name in the other languages teams chat in, and "is" in them: "la contraseña del
# wifi de invitados es X", "Passwort für den Staging-Server: X", "le mot de passe admin est X",
# "a senha do banco é X", "la password del router è X" (each was stored and quoted back)
_FOREIGN_LABEL = (r"(?P<label>contrase[ñn]a|clave|passwort|kennwort|mot\s+de\s+passe|mdp|senha|"
                  r"palavra-passe|parola\s+d['’]ordine|wachtwoord|l[öo]senord|adgangskode|"
                  r"salasana|has[łl]o|heslo|jelsz[óo]|[şs]ifre|пароль|"
                  # (the English word with another language's "of": "la password del router è
                  # X"; not "the password manager migration ticket is OPS-4411")
                  r"password(?=[ \t]+(?:del|della|dello|dei|di|de|do|da|du|des|für|fur|van|"
                  r"för)\b))")
_FOREIGN_IS = (r"(?:\bes\b|\best\b|\bist\b|\bé\b|\bè\b|\bera\b|\bwar\b|\blautet\b|"
               r"\bis\b|\bjest\b|\bje\b|\bär\b|\ber\b|\bon\b|\bэто\b|[:=：—-])")
# Between a label and its value: "is", "was", "'s", a colon or an equals sign, and an adverb
# after the verb ("the wifi password in the office is now correct-horse-battery-staple", "… is
# still hunter2blue": both were stored and quoted back)
_IS = (r"[ \t]*(?:(?:\bis\b|\bwas\b|(?<=[a-z])['\u2019]s\b)(?:[ \t]+(?:now|still|currently))?"
       r"|:|=)[ \t]*")
# (kind, pattern, how the value is checked)
_LABELLED = [
    # label = value, label: value, "label": "value", label := value, label => value
    ("credential", r"(?i)" + _LABEL + _QUOTE + r"[ \t]*(?::=|=>|->|\u2192|==?|:)(?!//)"
                   r"[ \t]*@?" + _QUOTE + _CREDENTIAL, "credential"),
    # "the grafana admin password is X", "password for the staging db: X", "new VPN password
    # (expires Friday): X"
    # (and "the password's hunter2hunter2": "'s" is "is")
    ("credential", r"(?i)" + _PROSE_LABEL + _WORDS + _ASIDE + _QUOTE + _IS + _QUOTE
                   + _CREDENTIAL, "credential"),
    # the same in another language (a value holding a digit or a symbol)
    ("credential", r"(?i)" + _FOREIGN_LABEL + r"(?:[ \t]+[\w.@/'’-]+){0,5}?" + _QUOTE
                   + r"[ \t]*" + _FOREIGN_IS + r"[ \t]*" + _QUOTE + _CREDENTIAL, "credential"),
    # the same two shapes with a value of letters only
    ("credential", r"(?i)" + _LETTERS_LABEL + _QUOTE + r"[ \t]*(?::=|=>|->|\u2192|==?|:)(?!//)[ \t]*"
                   + _QUOTE + _LETTERS, "unknown-word"),
    ("credential", r"(?i)" + _PASSWORD_PROSE_LABEL + _WORDS + _QUOTE + _IS + _QUOTE
                   + _LETTERS, "unknown-word"),
    # an environment variable's value whatever it says: DB_PASSWORD=supersecret, PGPASSWORD=qwerty
    # (the name ends with the credential word: not TOKENIZER=wordpiece or BYPASS=enabled)
    ("credential", r"(?<![A-Za-z0-9_])(?P<label>[A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|"
                   r"TOKEN|API_?KEY|ACCESS_?KEY|AUTH_?KEY|PRIVATE_?KEY|SECRET_?KEY|CREDENTIALS?)"
                   r"|(?:[A-Z0-9_]*_)?(?:PASS|PWD|PW))=[\"']?" + _LETTERS, "assigned"),
    # a quoted value of up to four words that looks like a credential: PGPASSWORD="p@ss w0rd"
    ("credential", r"(?i)" + _LETTERS_LABEL + r"[\"'`]?[ \t]*(?::=|=>|->|\u2192|==?|:)[ \t]*"
                   r"(?P<q>[\"'`])(?P<secret>[^\s\"'`]+(?:[ \t][^\s\"'`]+){0,3})(?P=q)",
     "credential"),
    # a quoted literal in code or config is a value whatever it says: password = "hunter"
    ("credential", r"(?i)" + _LETTERS_LABEL + r"[\"'`]?[ \t]*(?::=|=>|->|\u2192|==?|:)[ \t]*"
                   r"(?P<q>[\"'`])(?P<secret>[A-Za-z]{4,64})(?P=q)", "assigned"),
    # a wifi's key or pass after its network: "wifi: Guest / pass X", "SSID: AcmeGuest, key: X"
    # ("key" and "pass" alone are other words; the value must hold a digit or a symbol)
    ("credential", r"(?i)\b(?:ssid|wi-?fi|wlan|wpa[23]?)\b[^\n]{0,50}?\b(?P<label>key|pass|passkey)"
                   r"\b[ \t]*(?::|=|\bis\b)?[ \t]*" + _QUOTE + _CREDENTIAL, "credential"),
    # the guest network's key said as the network itself: "guest wifi is ChezMarco2026" (a
    # name with a letter and a digit or a symbol, eight or more long; "wifi is 5GHz only",
    # "wifi: 802.11ax" and "wifi is WPA2" are too short or cut by a dot; "wifi is 50Mbps-ish" and
    # "the wifi is WPA2-Enterprise" name its speed and kind; WPA asks eight characters or more)
    ("credential", r"(?i)\b(?P<label>wi-?fi)" + _IS + _QUOTE + r"(?=[^\s\"'`,;&]*[A-Za-z])"
                   r"(?=[^\s\"'`,;&.]{8})(?!wpa|wep|wi-?fi|\d+(?:[.,]\d+)?[kmg](?:bps|hz|b))"
                   + _CREDENTIAL, "credential"),
    # "I changed the root password to X"
    ("credential", r"(?i)\b(?:changed|set|reset|updated)\b[^\n]{0,40}?(?P<label>password|passwd|"
                   r"passphrase)\b[^\n.?!]{0,30}?\bto[ \t]+" + _QUOTE + _CREDENTIAL, "credential"),
    # "the password set to X", "root password was changed to X", "the root pw changed from
    # oldpass to X", "rotated the vpn pw, it's now X", "root pw is ~oldpass~ now X"
    ("credential", r"(?i)\b(?P<label>password|passwd|passphrase|pw)\b[^\n.?!]{0,30}?"
                   r"\b(?:changed|set|reset|updated|rotated)(?:[ \t]+from[ \t]+\S+)?[ \t]+to[ \t]+"
                   + _QUOTE + _CREDENTIAL, "credential"),
    ("credential", r"(?i)\b(?P<label>password|passwd|passphrase|pw)\b[^\n.?!]{0,40}?"
                   r"\bnow\b[ \t]*(?:is\b|:|=)?[ \t]*" + _QUOTE + _CREDENTIAL, "credential"),
    # the value spelled out after what it is said to be: "pw is the usual one + 2026, i.e.
    # Winter2026!" (stored whole: "the" was the value after "is")
    ("credential", r"(?i)\b(?P<label>password|passwd|passphrase|pw)\b[^\n.?!]{0,60}?"
                   r"(?:\bi\.e\.|\bie\b|\baka\b|\bnamely\b|\bso\s+it['\u2019]?s\b|\bwhich\s+is\b|"
                   r"\bthat\s+is\b)[ \t,:]*" + _QUOTE + _CREDENTIAL, "credential"),
    # "webhook signing secret X", "the token for the metrics endpoint X": no operator, so the
    # value must be random-looking
    ("credential", r"(?i)" + _PROSE_LABEL + _WORDS + r"[ \t]+" + _QUOTE + _RANDOM,
     "strong"),
    # Authorization: Bearer X / Basic X / token X
    ("credential", r"(?i)\b(?:authorization|proxy-authorization)[\"']?[ \t]*[:=][ \t]*[\"']?"
                   r"(?:bearer|basic|token|digest|apikey)[ \t]+" + _RANDOM, "strong"),
    ("credential", r"(?<![A-Za-z0-9])Bearer[ \t]+" + _RANDOM, "strong"),
    # scheme://user:password@host (user may be empty: redis://:pw@host)
    # (to the last "@" before the host: "redis://:r3d1sP@ss@cache:6379" left "ss" beside its
    # marker)
    ("url-password", r"(?<=://)[^/\s:@]*:(?P<secret>[^/\s]+?)(?=@[^@/\s]+(?:[/?#\s\"'`>)]|$))",
     "any"),
    # login/creds "admin / X" and "admin:X"
    ("credential", r"(?i)\b(?:login|logins|creds|credentials?|user/pass)\b(?:[ \t]+[\w.@-]+){0,3}?"
                   r"[ \t]*(?:is|are|:|=|->|=>|\u2192)[ \t]*[\w.@-]+[ \t]*[:/][ \t]*" + _CREDENTIAL,
     "credential"),
    # command lines: mysql -pX, sshpass -p X, --password X
    ("credential", r"\b(?:mysql\w*|mariadb\w*)\b[^\n]*?[ \t]-p(?P<secret>[^\s\"']+)", "credential"),
    ("credential", r"\bsshpass[ \t]+-p[ \t]*['\"]?" + _CREDENTIAL, "credential"),
    # curl -u user:X, docker login -p X, redis-cli -a X, and .netrc's "login bob password X"
    ("credential", r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]*['\"]?[^\s:'\"]+:['\"]?" + _VALUE,
     "assigned"),
    ("credential", r"\bdocker\b[^\n]*?\blogin\b[^\n]*?[ \t](?:-p|--password)[ \t]+['\"]?" + _VALUE,
     "assigned"),
    ("credential", r"\bredis-cli\b[^\n]*?[ \t]-a[ \t]+['\"]?" + _VALUE, "assigned"),
    # openssl's passwords: "openssl enc -aes-256-cbc -k X", "-pass pass:X", "-passin pass:X"
    ("credential", r"\bopenssl\b[^\n]*?[ \t](?:-k|-pass(?:in|out)?[ \t]+pass:)[ \t]*['\"]?"
                   + _VALUE, "assigned"),
    # a wallet's recovery phrase: twelve to twenty-four short words after its label
    ("credential", r"(?i)\b(?:recovery|seed|mnemonic|secret|backup|wallet)[ \t]+(?:phrase|words)"
                   r"\b[^\n:=]{0,20}?(?:\bis\b|\bare\b|:|=)[ \t]*['\"`]?"
                   r"(?P<secret>(?:[a-z]{3,8}[ \t,]+){11,23}[a-z]{3,8})\b", "any"),
    ("credential", r"(?i)\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+(?P<label>password)[ \t]+"
                   + _VALUE, "assigned"),
    ("credential", r"(?i)\blogin[ \t]+\S+[ \t]+(?P<label>password)[ \t]+" + _CREDENTIAL,
     "credential"),
    # "host sftp.partner.com user acme_ingest pass Tq8!mZ2@wLp5", "user deploy pw X": a
    # password after the account it opens (kept: "pass" is a verb elsewhere)
    # (either quoted: "user `admin` pass `Gr33nTea!2026`" was stored whole)
    ("credential", r"(?i)\buser(?:name)?[ \t]*[:=]?[ \t]+\S+[ \t,;/]+(?P<label>pass|pw|pwd|password)"
                   r"[ \t]*[:=]?[ \t]+" + _QUOTE + _CREDENTIAL, "credential"),
    # a Wi-Fi network's key: "WPA2 key blue-lemon-storm-88", "wifi password: …"
    ("credential", r"(?i)\b(?:wpa[23]?|wi-?fi|network)[ \t]+(?P<label>key|pass(?:word|phrase)?|psk)"
                   r"[ \t]*(?:\bis\b|:|=)?[ \t]*" + _QUOTE + _CREDENTIAL, "credential"),
    ("credential", r"(?<![\w-])--password[= \t]['\"]?" + _CREDENTIAL, "credential"),
    # what one logs in with: "ssh root@10.0.0.5 with password hunter2 if the bastion is down"
    # (kept: seven characters after no "is" or colon)
    ("credential", r"(?i)\b(?:with|using|via|w/)[ \t]+(?:(?:the|a|its|their)[ \t]+)?"
                   r"(?:[\w-]+[ \t]+)?(?P<label>password|passwd|passphrase|pw|pass)[ \t]+"
                   + _QUOTE + _CREDENTIAL,
     "credential"),
    # the value before its label: "use X as the admin password until Monday", "X is the password
    # for the vault" (not "use 1Password as the password manager": the label ends the noun)
    ("credential", r"(?i)(?:\b(?:use|try|using|set|setting)[ \t]+|^[ \t]*|[(:][ \t]*)" + _QUOTE
                   + _CREDENTIAL + _QUOTE + r"[ \t]+(?:as|is|was)[ \t]+"
                   r"(?:(?:the|a|an|our|my|your|its|their)[ \t]+)?(?:[\w-]+[ \t]+){0,2}?"
                   + _PASSWORD_NOUN, "password"),
    # a password's label and its value with nothing between: "Temporary password X expires",
    # "(pw X)", "login is deploy, pass X" ("pass" only where it cannot be the verb's object)
    ("credential", r"(?i)(?:\b(?P<label>password|passwd|passphrase|pw)|(?:[(,;]|^)[ \t]*"
                   r"(?P<label2>pass|pwd))[ \t]+" + _QUOTE + _CREDENTIAL, "password"),
    # the value, then an arrow or "that's" pointing at its label: "X <- that's the pw for the NAS"
    ("credential", r"(?i)(?:^[ \t]*|[(:][ \t]*)" + _QUOTE + _CREDENTIAL + _QUOTE +
                   r"[ \t]*(?:(?:<-+|\u2190)[ \t]*(?:(?:that's|that is|this is|it's|is)[ \t]+)?|"
                   r"(?:[-\u2013\u2014]+|,)?[ \t]*(?:that's|that is|this is|it's|is)[ \t]+)"
                   r"(?:(?:the|a|an|our|my|your)[ \t]+)?(?:[\w-]+[ \t]+){0,2}?"
                   + _PASSWORD_NOUN, "password"),
    # a passphrase of words written apart: "passphrase: correct horse battery staple" (three to
    # eight words to the line's end, none a function word: not "passphrase: use the one in
    # 1Password")
    ("credential", r"(?i)\b(?P<label>passphrase|pass phrase)\b" + _WORDS + _ASIDE + _QUOTE +
                   _IS + _QUOTE +
                   # (a number among them too: "purple monkey dishwasher 42")
                   r"(?P<secret>[a-z]{3,}(?:[ \t]+(?:[a-z]{3,}|\d{1,6})){2,7})" + _QUOTE
                   + r"[ \t]*(?:[.!]?[ \t]*$|\n)",
     "words"),
    # the same after a password's label and a colon: "pw for the shared 1password vault: correct
    # horse battery staple" (kept whole; after "is" three words are as often a complaint:
    # "the password is case sensitive btw")
    ("credential", r"(?i)\b(?P<label>password|passwd|pw)\b" + _WORDS + _ASIDE + _QUOTE +
                   r"[ \t]*(?::|=)[ \t]*" + _QUOTE +
                   r"(?P<secret>[a-z]{3,}(?:[ \t]+(?:[a-z]{3,}|\d{1,6})){2,7})" + _QUOTE
                   + r"[ \t]*(?:[.!]?[ \t]*$|\n)",
     "words"),
    # a password or passphrase in quotes after its label, spaces and all: "my ssh passphrase is
    # 'blue moon over tokyo 42'" (kept: no rule took a quoted value after "is"); none of its
    # words a function word ("the wifi password is 'ask at the front desk'" says where it is)
    ("credential", r"(?i)" + _PASSWORD_PROSE_LABEL + _WORDS + _ASIDE + _IS +
                   r"(?P<q>[\"'`\u201c\u2018])"
                   r"(?P<secret>[^\"'`\u201d\u2019\n]{4,64}?)[\"'`\u201d\u2019]", "phrase"),
    # an app password as Google gives one, four groups of four letters: "my gmail app password
    # is abcd efgh ijkl mnop for the alerts mailer" (stored whole: after "is" words are as often
    # a complaint, "the password is case sensitive btw", which this shape never is)
    ("credential", r"(?i)" + _PASSWORD_PROSE_LABEL + _WORDS + _ASIDE + _QUOTE +
                   _IS + _QUOTE +
                   r"(?P<secret>[a-z]{4}(?:[ \t][a-z]{4}){3})(?![\w-])", "any"),
    # a passphrase of words joined by hyphens: "passphrase for the key is correct-horse-battery"
    # (or a shared secret's: "new VPN shared secret: correct-horse-battery", "psk: …")
    ("credential", r"(?i)(?:" + _PASSWORD_PROSE_LABEL + r"|(?P<label2>\b(?:(?:shared|vpn|"
                   r"wi-?fi|client|app|api)[ \t]+secret|psk|pre-?shared[ -]key)\b))" + _WORDS
                   + _ASIDE + _QUOTE + _IS + _QUOTE +
                   r"(?P<secret>[A-Za-z0-9]{3,}(?:-[A-Za-z0-9]{3,}){2,})(?![\w-])", "any"),
]

# Shapes with no credential word a label gate would find: (kind, pattern, check, gate)
_UNLABELLED = [
    # a PIN or a code that opens something: "door code is 6654", "PIN: 0408", "zoom passcode
    # 287429", "the safe combination is 12-34-56" (not "PIN 13 on the pi", not a date)
    ("pin", r"(?i)\b(?:pin(?:[ \t]*code)?|pass[ \t]?code|(?:door|gate|alarm|lock|access|entry|"
            r"security|verification|one-time|2fa|mfa|otp|"
            # ("the garage code changed to 8842" was kept)
            r"garage|keypad|lockbox|locker|safe|building|storage|closet|office|front[ \t]+door)"
            r"[ \t]+code|otp|combination|combo|"
            # (a box that opens by a code is its code's name: "the lockbox for the spare key is
            # 5512 now" was stored and quoted back)
            r"lockbox|lock[ \t]?box|keypad|padlock|key[ \t]?safe|key[ \t]?box|"
            # what a code opens said after it: "the code to the supply closet is 4512"
            r"(?<!error )(?<!status )(?<!exit )code(?=[ \t]+(?:to|for)[ \t]+(?:the[ \t]+)?"
            r"(?:[\w-]+[ \t]+){0,2}?(?:closet|room|door|office|building|gate|garage|safe|"
            r"locker|cabinet|lockbox|storage|lab|suite|elevator|alarm|keypad|padlock|lock)\b))"
            # (or where it is, or who sent it: "the safe combo in the office is 12-34-56",
            # "the OTP they texted me is 482913"; or an aside before a colon: "door code (new):
            # 4412", "the alarm code is the same as the old one plus 1: 4412")
            r"(?:[ \t]+(?:for|of|to)\b[^\n:=.]{0,30}?|[ \t]+(?:in|at|on|they|we|you|he|she|it|i)"
            r"\b[^\n:=.]{0,30}?(?=[ \t]+is\b|[ \t]*:)|[ \t]*\([^()\n]{1,30}\)(?=[ \t]*:)|"
            r"[ \t]+is\b[^\n:=.]{1,40}?(?=:))?[ \t]*"
            # (or a new one: "door code changed to 7391", "the alarm code is now 4471")
            r"(?:\bis[ \t]+now\b|\bnow(?:[ \t]+is)?\b|\b(?:changed|updated|reset|set)[ \t]+to\b|"
            r"\bis\b|:|=)?[ \t]*(?:\|\|[ \t]*)?"
            r"(?P<secret>\d(?:[ -]?\d){3,11})(?![\w.-]|/\d)", "pin", "pin"),
    # a .pgpass line: host:port:database:user:password (a host with a dot, a non-hex letter or
    # "*": not an SSH fingerprint's or a MAC address's hex pairs)
    ("credential", r"(?<![\w.:-])(?=[\w.*-]*[g-zG-Z.*_-])[\w.*-]+:(?:\d{2,5}|\*):[\w.*-]+:"
                   r"[\w.*-]+:(?P<secret>[^\s:]+)(?![^\s])", "password", "colons"),
    # user:password@host without a scheme ("ssh admin:X@10.0.0.5"; not "mailto:maya@acme.io")
    ("url-password", r"(?<![\w/:.@-])[\w.-]+:(?P<secret>[^\s:@/]+)@(?=[\w-]+(?:\.[\w-]+)+)",
     "password", "at"),
    # "the new one is X, that's for the root account": a password by what it opens
    ("credential", r"(?i)\b(?:new|old|temp|temporary|current)[ \t]+one[ \t]+is[ \t]+" + _QUOTE
                   + _CREDENTIAL + _QUOTE + r"[ \t]*[,;(-]*[ \t]*(?:that's|that is|it's)[ \t]+"
                   r"(?:for|the)\b[^\n]{0,30}?\b(?:account|login|box|server|vm|host|router|"
                   r"wi-?fi|vpn|admin|user|db|database|console)\b", "password", "one"),
    # a TOTP / 2FA seed (base32): "TOTP seed for the shared account: JBSWY3DPEHPK3PXP"
    ("credential", r"(?i)\b(?:totp|2fa|mfa|otp|authenticator)[ \t]+(?:seed|secret|key)\b"
                   r"[^\n:=]{0,30}?[ \t]*(?:\bis\b|:|=)?[ \t]*" + _QUOTE +
                   r"(?P<secret>(?-i:[A-Z2-7]{4}(?:[ ]?[A-Z2-7]{4}){3,})=*)(?![\w])", "any", "otp"),
    # an Okta API token, "00" and 40 more, named by the word "okta" before it (gitleaks' rule)
    ("okta-token", r"(?i)\bokta\b[^\n]{0,40}?(?<![\w-])(?P<secret>00[A-Za-z0-9_-]{40})(?![\w-])",
     "strong", "token"),
    # a Docker config's registry login: {"auths": {"registry…": {"auth": "<base64 of user:pass>"}}}
    # (kept whole from a pasted ~/.docker/config.json: "auth" is no credential word)
    ("credential", r"[\"']auth[\"']\s*:\s*[\"'](?P<secret>[A-Za-z0-9+/]{8,}={0,2})[\"']",
     "basic-auth", "token"),
    # a US social security number, as forms ask for it: "my SSN is 123-45-6789" (the numbers
    # no SSN is given: area 000, 666 or 9xx, group 00, serial 0000)
    ("ssn", r"(?<![\w.-])(?P<secret>(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4})"
            r"(?![\w-]|\.\d)", "any", "ssn"),
    # a payment card's number, 13 to 19 digits in groups or not, that passes its Luhn check
    # (an order or tracking number seldom does, and then seldom starts as cards do)
    ("card-number", r"(?<![\w.@#/:<-])(?P<secret>(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5))\d*"
                    r"(?:[ -]?\d){8,})(?![\w-]|\.\d)", "luhn", "card"),
    # a card's security code: "4111 1111 1111 1111 exp 12/28 cvv 123" (the number was taken,
    # its code kept)
    ("card-code", r"(?i)\b(?:cvv2?|cvc2?|csc|card[ \t]+security[ \t]+code)\b[ \t]*(?:\bis\b|:|=|#)?"
                  r"[ \t]*(?P<secret>\d{3,4})(?![\w.-])", "any", ""),
    # a bank account's number where bank details are given: "bank details for the refund: acct
    # 000123456789, routing 011000015" (a routing number or a sort code names the bank, and is
    # public; a customer's "account 48213" with no bank word stays)
    ("bank-account", r"(?i)\b(?:acct|account|a/c)(?:[ \t]*(?:number|no\.?|num|#))?[ \t]*"
                     r"(?:\bis\b|:|=)?[ \t]*(?P<secret>\d(?:[ -]?\d){5,16})(?![\w-]|\.\d)",
     "any", "bank"),
    # an IBAN, grouped by four or not, that passes its mod-97 check: "IBAN DE89 3704 0044 0532
    # 0130 00"
    ("iban", r"(?<![\w-])(?P<secret>[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?)"
             r"(?![\w-])", "iban", "iban"),
    # a passport's, a driving licence's or an identity card's number, after what it is: "my
    # passport no. is 533380006", "driver's license D1234567"
    ("id-number", r"(?i)\b(?:passport|driver['’]?s?[ \t]+licen[cs]e|driving[ \t]+licen[cs]e|"
                  r"national[ \t]+id(?:[ \t]+card)?|id[ \t]+card)(?:[ \t]*(?:number|no\.?|num|#))?"
                  r"[ \t]*(?:\bis\b|:|=)?[ \t]*(?P<secret>(?=[A-Z0-9]*\d)[A-Z0-9]{6,12})(?![\w-])",
     "any", "id"),
    # a private key base64-encoded whole, as a kubeconfig holds it ("client-key-data:
    # LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVkt…", "-----BEGIN RSA PRIVATE KEY-----" encoded): the
    # PEM rule sees no "BEGIN" in it
    ("private-key", r"(?<![A-Za-z0-9+/])(?P<secret>LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2})",
     "pem64", "token"),
    # a service's key with no credential word: "wandb key for the shared project if anyone
    # needs it: 3f9a…", "the sentry key is …" (stored and quoted back, 5 Dec, eighteenth
    # session); the value must be random-looking, and "key" a noun ("the key change is <sha>")
    ("credential", r"(?i)\bkey\b(?:[ \t]+(?:for|of|to|on|in)\b[^\n:=]{0,50}?)?[ \t]*"
                   # (of one run: not "user-profile-v2-2026", a cache key's words)
                   r"(?:\bis\b|:|=)[ \t]*" + _QUOTE
                   + r"(?P<secret>[A-Za-z0-9+/]{20,}={0,2})(?![\w.-])", "strong", "token"),
    # a password's crypt hash (htpasswd, /etc/shadow): "admin:$apr1$x8Yz1Q2w$Hq7…"
    ("password-hash", r"(?P<secret>\$(?:apr1|2[abxy]|[156]|y|argon2id?)\$[^\s:]{20,})", "hash",
     "dollar"),
]
_PIN_HINTS = ("pin", "code", "otp", "combination", "combo", "box", "keypad", "padlock", "safe")
# what an SSN's or a card's rule needs, looked for first (each rule alone cost 1.5 µs a chat
# message: a lookbehind tried at every digit)
_SSN_HINT = re.compile(r"\d-\d\d-\d")
_CARD_HINT = re.compile(r"\d{4}[ -]?\d{4}")
_IBAN_HINT = re.compile(r"[A-Z]{2}\d\d[ ]?[A-Z0-9]{4}")
_BANK_HINTS = ("routing", "bank", "iban", "sort code", "aba ", "swift", "wire", "deposit")
_ID_HINTS = ("passport", "licen", "national id", "id card")

_AWS_KEY_ID = re.compile(r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_AWS_WINDOW = 200  # characters after a key id in which its secret is looked for

_FUNCTION_WORDS = frozenset(
    "the a an and or but in on at to of for from with by is are was were be it its this that "
    "one use ask see same usual old new our your my their there here what which".split())
_PLACEHOLDER_WORDS = {"password", "passwd", "secret", "token", "changeme", "change_me", "redacted",
                      "none", "null", "nil", "true", "false", "undefined", "example", "xxx",
                      "your_password", "yourpassword", "mypassword", "pass", "required",
                      "optional", "string", "empty"}
_CODE_REFERENCE = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+$|[(\[]")
_REPEATED = re.compile(r"(.)\1{5,}")
# A private key's body in an example: nothing, dots, x's or a placeholder in angle brackets.
_EXAMPLE_BODY = re.compile(r"(?is)[\s.\u2026*x]*(?:<[^>]*>|\[[^\]]*\])?[\s.\u2026*x]*")
# A YAML tag where a value would be (Ansible's `!vault |` before an encrypted block,
# CloudFormation's `!Ref Param`): what follows it is no secret in clear.
_YAML_TAG = re.compile(r"(?i)!(?:vault|ref|sub|getatt|importvalue|join|select|split|findinmap|"
                       r"base64|cidr|getazs|if|equals|not|and|or|condition|transform|env|"
                       r"include|reference|unsafe|secret|encrypted)")
_PASSWORD_LABEL = re.compile(r"(?i)pass|pwd|pw|" + "|".join(_FOREIGN_PASSWORD_PARTS))
_SPECIAL = set("!@#$%^&*?~+=/\\|")

_RULES: tuple[_Rule, ...] = (
    *_from_detect_secrets(),
    *(_Rule(kind, re.compile(pattern, re.DOTALL), value="block", gate="")
      for kind, pattern in _OURS if kind == "private-key"),
    *(_Rule(kind, re.compile(pattern)) for kind, pattern in _OURS if kind != "private-key"),
    *(_Rule(kind, re.compile(pattern), "secret", value=check,
            gate="url" if kind == "url-password" else "label")
      for kind, pattern, check in _LABELLED),
    *(_Rule(kind, re.compile(pattern), "secret", value=check, gate=gate)
      for kind, pattern, check, gate in _UNLABELLED),
)

# detect-secrets' entropy measures; their plugin objects are not shared between threads.
_entropy = threading.local()
# Bits per character a random-looking value needs. detect-secrets' own limits (hex 3.0, base64
# 4.5) are for its context-free scan; a 16-24 character token cannot reach 4.5 bits, and here a
# label already says what the value is.
_STRONG_BITS = {"hex": 3.0, "base64": 3.5}


def _alphabet(value: str) -> str:
    return "hex" if all(c in "0123456789abcdefABCDEF" for c in value) else "base64"


def _shannon(value: str) -> float:
    """Bits per character, by detect-secrets' measure for the value's alphabet."""
    if not hasattr(_entropy, "hex"):
        _entropy.hex, _entropy.base64 = HexHighEntropyString(), Base64HighEntropyString()
    plugin = _entropy.hex if _alphabet(value) == "hex" else _entropy.base64
    return plugin.calculate_shannon_entropy(value)


def _placeholder(value: str) -> bool:
    v = value.strip("\"'`*")
    return (not v or v.startswith(("/", "~/", "./", "../"))  # a path, not a password
            or is_templated_secret(v) or v.startswith(("$", "<", "{", "[", "%(", "%{", "%s"))
            or v.lower() in _PLACEHOLDER_WORDS
            or bool(_REPEATED.search(v)) or is_sequential_string(v) or "://" in v
            or bool(_CODE_REFERENCE.search(v)) or bool(_YAML_TAG.fullmatch(v)))


def _credential(value: str) -> bool:
    """A value after `password =` / `token:` / `is` that looks like a credential, not a word, a
    placeholder or a code reference."""
    if len(value) < 4 or _placeholder(value):
        return False
    # a sentence's own end is no symbol of the value: "the password you are providing is
    # correct?" (the value then taken whole, "qwerty123?", when the rest is a credential)
    core = value.rstrip("?!.")
    letters = any(c.isalpha() for c in core)
    return letters and (any(c.isdigit() for c in core) or any(c in _SPECIAL for c in core))


_DATE_SHAPE = re.compile(r"(?:19|20)\d\d(?:[ -]?\d\d){0,2}")
_VERSION = re.compile(r"(?i)v?\d+(?:\.\d+)+[\w.+-]*")


def _password_like(value: str) -> bool:
    """A value no label stands right before (a password's label after it, or its pair's user
    before it): a credential of 8+ characters that is no version number."""
    core = value.rstrip("?!.")
    return len(core) >= 8 and _credential(value) and not _VERSION.fullmatch(core)


# Participles the word list lacks are still what a password "is" in technical chat: hardcoded,
# autogenerated, gitignored, templated.
_PARTICIPLE = re.compile(r"(?i)(?:ed|ing)$")
# A camelCase value naming what it holds is a variable in code, not the value: apiKey,
# userPassword (but "supersecret" and "CorrectHorseBattery" are values).
_NAMES_ITSELF = re.compile(r"(?i)pass|pwd|secret|token|key|auth|cred")
_CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")


def _variable(value: str) -> bool:
    return bool(_CAMEL.fullmatch(value) and _NAMES_ITSELF.search(value))


def _unknown_word(value: str) -> bool:
    """A run of letters after a credential label that is no English word: a password."""
    return not (_placeholder(value) or _PARTICIPLE.search(value) or _variable(value)
                or english_word(value))


def _strong(value: str) -> bool:
    """A random-looking token: long, letters and digits, high Shannon entropy."""
    return (len(value) >= 16 and _credential(value) and any(c.isdigit() for c in value)
            and _shannon(value) >= _STRONG_BITS[_alphabet(value)])


def _user_colon_password(value: str) -> bool:
    try:
        plain = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return False
    user, colon, password = plain.partition(":")
    return bool(user and colon and password) and plain.isprintable()


def _card_number(value: str) -> bool:
    """13 to 19 digits, written together or in groups of one separator, passing the Luhn check."""
    digits = [int(c) for c in value if c.isdigit()]
    # (run together, a card is 15 or 16 digits: Discord's and Twitter's ids are 17 to 19)
    if not (13 <= len(digits) <= 19 if not value.isdigit() else 15 <= len(digits) <= 16) \
            or len({c for c in value if not c.isdigit()}) > 1:
        return False
    total = sum(d if i % 2 == 0 else (d * 2 - 9 if d > 4 else d * 2)
                for i, d in enumerate(reversed(digits)))
    return total % 10 == 0


def _iban(value: str) -> bool:
    """An IBAN: its country's letters and check digits moved to the end, letters as numbers
    (A = 10 … Z = 35), the whole is 1 modulo 97."""
    plain = value.replace(" ", "")
    if not 15 <= len(plain) <= 34:
        return False
    return int("".join(str(int(c, 36)) for c in plain[4:] + plain[:4])) % 97 == 1


def _encoded_private_key(value: str) -> bool:
    """Whether base64 text starts with a PEM private key's header ("-----BEGIN … PRIVATE KEY")."""
    head = value[:64]
    try:
        said = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except (binascii.Error, ValueError):
        return False
    return b"PRIVATE KEY" in said


def _checks(rule: _Rule, value: str) -> bool:
    if rule.value == "credential":
        return _credential(value)
    if rule.value == "strong":
        return _strong(value)
    if rule.value == "unknown-word":
        return _unknown_word(value)
    if rule.value == "assigned":  # a literal, not a variable named for what it holds
        return not (_placeholder(value) or _variable(value))
    if rule.value == "any":
        return not _placeholder(value)
    if rule.value == "password":
        return _password_like(value)
    if rule.value == "words":  # a passphrase's words, none a function word
        return not set(value.lower().split()) & _FUNCTION_WORDS
    if rule.value == "phrase":  # the same, quoted: not a mask ("********") or a placeholder
        return not (set(value.lower().split()) & _FUNCTION_WORDS or _placeholder(value)
                    or _REPEATED.search(value))
    if rule.value == "basic-auth":  # base64 of "user:password"
        return _user_colon_password(value)
    if rule.value == "luhn":
        return _card_number(value)
    if rule.value == "iban":
        return _iban(value)
    if rule.value == "block":  # (a real key's body repeats: "b3BlbnNzaC1rZXktdjEAAAAABG5vbm…")
        return not _EXAMPLE_BODY.fullmatch(value.split("-----", 2)[-1].rsplit("-----END", 1)[0])
    if rule.value == "pem64":  # a private key's, not a certificate's (public)
        return _encoded_private_key(value)
    if rule.value == "pin":  # not a date or a year ("access code 2024-11-05")
        return not _DATE_SHAPE.fullmatch(value)
    return not _REPEATED.search(value)  # a token shape filled with xxxxxx is an example


def _kind(rule: _Rule, m: re.Match[str]) -> str:
    """A labelled value is a `password` when its label says so, else a `credential`."""
    if rule.kind != "credential":
        return rule.kind
    if rule.value == "password":
        return "password"
    label = m.groupdict().get("label") or ""
    return "password" if _PASSWORD_LABEL.search(label) else "credential"


def _token_end(text: str, end: int) -> int:
    """detect-secrets' patterns match a token's required length: take the rest of it too."""
    while end < len(text) and (text[end].isalnum() or text[end] in "_-+/="):
        end += 1
    return end


def _spans(text: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    lower = text.lower()
    gates = {"": True, "token": _LONG_TOKEN.search(text) is not None,
             "label": _has_label_hint(text), "url": "://" in text, "at": "@" in text,
             "one": " one " in lower, "dollar": "$" in text,
             "otp": any(h in lower for h in ("totp", "2fa", "mfa", "otp", "authenticator")),
             "colons": text.count(":") >= 4, "pin": any(h in lower for h in _PIN_HINTS),
             "ssn": _SSN_HINT.search(text) is not None,
             "card": _CARD_HINT.search(text) is not None,
             "iban": _IBAN_HINT.search(text) is not None,
             "bank": any(h in lower for h in _BANK_HINTS),
             "id": any(h in lower for h in _ID_HINTS)}
    for rule in _RULES:
        if not gates[rule.gate]:
            continue
        for m in rule.pattern.finditer(text):
            try:
                start, end = m.span(rule.group)
            except IndexError:
                start, end = m.span()
            if start < 0 or start == end:
                continue
            if rule.value == "token" and start and text[start - 1].isalnum() \
                    and text[start].isalpha():
                continue  # inside a longer word ("disk-encryption" holds "sk-…")
            if rule.extend:
                end = _token_end(text, end)
            if _checks(rule, text[start:end]):
                found.append((start, end, _kind(rule, m)))
    for key in _AWS_KEY_ID.finditer(text) if gates["token"] else ():
        window = text[key.end():key.end() + _AWS_WINDOW]
        for m in _AWS_SECRET.finditer(window):
            value = m.group()
            if any(c.isupper() for c in value) and any(c.isdigit() for c in value) \
                    and _shannon(value) >= _STRONG_BITS["base64"]:
                found.append((key.end() + m.start(), key.end() + m.end(), "aws-secret-key"))
    if gates["token"]:
        found += _context_spans(text)
    if "/" in text:
        found += _pair_spans(text)
    if "||" in text:
        found += _spoiler_spans(text)
    if gates["label"]:
        found += _code_list_spans(text)
        found += _credential_list_spans(text)
    return found


# A list under a heading that says what it holds: "Creds for staging:", "- db: hunter2",
# "- admin: Xk9#pq2Lm"; "Passwords:", "• wifi: BlueFalcon77". Each item's label is a system, not
# "password", so no labelled rule saw a secret, and a note's list was answered back whole. The
# heading is a line of a few words that ends with a colon (bold or a Markdown heading too), no
# code ("def login():" is none); the list is the lines right under it, each "label: value" (or
# "=", "→", "->" after a bullet) with one word for a value, and a line without a bullet only
# unindented with a colon (code under a heading is indented); the account's name ("user: admin",
# "email: …", "host: …") and a count ("eu: 12,400") are no secret.
_CREDENTIALS_WORD = (r"(?=[^\n]{0,40}\b(?:creds|credentials?|passwords?|passwds?|pws|logins?|"
                     r"secrets?|passphrases?|passcodes?)\b)")
_HEADING_TEXT = r"(?![^\n]*\w\()[^\n:=\[\]{}'\"<>/\\`]{1,80}?"  # no call: "def login():"
_CREDENTIALS_HEADING = re.compile(
    rf"(?im)^[ \t]*(?:#{{1,6}}[ \t]+{_CREDENTIALS_WORD}{_HEADING_TEXT}:?"
    rf"|[*_]{{0,2}}{_CREDENTIALS_WORD}{_HEADING_TEXT}:)[*_]{{0,2}}[ \t]*\n")
_CREDENTIAL_ITEM = re.compile(
    r"(?:[ \t]*(?:[-*•·‣◦]|\d{1,2}[.)])[ \t]+[*_`]*(?P<label>[A-Za-z][\w .-]{0,29}?)[*_`]*[ \t]*"
    r"(?::|=|→|->)"
    r"|(?P<bare>[A-Za-z][\w .-]{0,29}?)[ \t]*:)"
    r"[ \t]*[`\"']?(?P<value>[^\s`\"']{4,})[`\"']?[ \t]*(?:\n|$)")
_ACCOUNT_LABEL = re.compile(r"(?i)^\W*(?:user(?:name)?|login|account|e-?mail|host(?:name)?|url|"
                            r"server|port|ssid|network|name|address|ip|domain|region|db name)\W*$")
_CODE_VALUE = re.compile(r"[\w.]+\(.*\)|.*\)$")  # "request.get_json()", not a password
_COUNT = re.compile(r"[$€£]?[\d.,]+[%kKmMbB]?")


def _credential_list_spans(text: str) -> list[tuple[int, int, str]]:
    found = []
    for heading in _CREDENTIALS_HEADING.finditer(text):
        pos = heading.end()
        while (item := _CREDENTIAL_ITEM.match(text, pos)) is not None:
            value = item.group("value")
            if not _ACCOUNT_LABEL.match(item.group("label") or item.group("bare")) \
                    and not _CODE_VALUE.fullmatch(value) \
                    and not value.startswith("[REDACTED") \
                    and not (value.isalpha() and value.islower()) \
                    and not _COUNT.fullmatch(value):  # "Logins per region:", "- eu: 12,400"
                found.append((item.start("value"), item.end("value"), "password"))
            pos = item.end()
    return found


# Recovery codes are pasted as a list, on one line or one a line, in backticks or numbered: every
# code of it is one ("recovery codes: 8f3k-2m9q 7x1p-4n6r" had its first code redacted and the
# rest answered back). The list starts after the label's colon, line break or "are", and ends at
# the first word that is no code (6+ letters and digits with a digit, hyphens between groups, or
# Google's "1234 5678"): "recovery codes are printed and in the safe" holds none.
_CODES_LABEL = re.compile(r"(?i)\b(?:recovery|backup|bypass|scratch)[ \t]+codes?\b"
                          r"(?:[^\n:]{0,40}?:|[ \t]*\n|[ \t]+are\b:?|"
                          # (or the first code right after: "otp backup codes 4829-1937
                          # 5521-0093 7712-4450" was stored and quoted back)
                          r"(?=[ \t]+[A-Za-z0-9-]*\d))")
# (a marker too: a list stored under older rules, "codes: [REDACTED:credential] 7x1p-4n6r",
# is read on past its first code by `lurker scrub`)
_CODE_SEPARATOR = re.compile(r"(?:[\s,;`*\"'\u2022-]|\band\b|(?<!\w)\d{1,2}[.)](?=\s)|"
                             r"\[REDACTED:[a-z0-9-]+\])*")
_CODE = re.compile(r"\d{4} \d{4}(?![\w-])|(?:[A-Za-z0-9]{2,}-)*[A-Za-z0-9]{2,}(?![\w-])")


def _code_list_spans(text: str) -> list[tuple[int, int, str]]:
    found = []
    for label in _CODES_LABEL.finditer(text):
        pos = label.end()
        while True:
            pos = _CODE_SEPARATOR.match(text, pos).end()
            m = _CODE.match(text, pos)
            code = m.group().replace("-", "").replace(" ", "") if m else ""
            if len(code) < 6 or not any(c.isdigit() for c in code):
                break
            found.append((m.start(), m.end(), "credential"))
            pos = m.end()
    return found


# A login pasted as "user / password": "admin / X on the staging grafana", "demo@acme.io / X",
# "wifi: AcmeGuest / X". A slash also separates paths, menus and alternatives ("admin /
# settings / billing", "root/Makefile", "origin/feature-2024-login"), so the user must be an
# account name or an e-mail address, or the message must speak of logging in somewhere other than
# in the value; and the value must be a password (8+ characters, letters with digits or symbols),
# not followed by another slash.
_PAIR = re.compile(r"(?<![\w/.@:%+-])(?P<uq>[\"'`*]?)"
                   r"(?P<user>[\w.%+-]+(?:@[\w-]+(?:\.[\w-]+)+)?)(?P=uq)(?P<space>[ \t]*)/[ \t]*(?P<q>[\"'`*]?)(?P<secret>[^\s/\"'`,<>()\[\]{}]+)"
                   r"(?P=q)(?![^\s,;)\"'`*])")
_ACCOUNT = re.compile(r"(?i)root|admin(?:istrator)?|ubuntu|ec2-user|centos|debian|pi|postgres|"
                      r"sa|deploy|guest|demo|test|user|ops|service|superuser|su")
_LOGIN_CONTEXT = re.compile(r"(?i)\b(?:wi-?fi|vpn|log(?:ging)?[ -]?in|login|logon|"
                            r"sign(?:ing)?[ -]?in|creds|credentials?|accounts?|ssh|router|"
                            r"console|portal|"
                            r"username|user/pass|passwords?|pw)\b")


def _shape(word: str) -> str:
    """Runs of letters, digits and the rest, each as one character: "bastion01" is "a9"."""
    return re.sub(r"(.)\1+", r"\1", "".join(
        "a" if c.isalpha() else "9" if c.isdigit() else c for c in word))


def _pair_spans(text: str) -> list[tuple[int, int, str]]:
    found = []
    for m in _PAIR.finditer(text):
        value = m["secret"]
        if not _password_like(value) or _placeholder(value):
            continue
        user = m["user"]
        if _shape(user) == _shape(value):
            continue  # alternatives of one kind: "JIRA-2231 / JIRA-2232", "bastion01 / bastion02"
        rest = text[:m.start("secret")] + text[m.end("secret"):]
        if _ACCOUNT.fullmatch(user) or "@" in user or (
                m["space"] and _LOGIN_CONTEXT.search(rest)):
            found.append((m.start("secret"), m.end("secret"), "password"))
    return found


# A Discord spoiler hides what a reader should click to see: "guest wifi: ||X||", "door: ||X||".
# In a message about logging in, a way in or a code, a password-like value in one is a secret
# though no label stands before it ("||Snape kills Dumbledore||" and "||v2.3.1||" are none).
_SPOILER = re.compile(r"\|\|[ \t]*(?P<secret>[^|\s]{4,100})[ \t]*\|\|")


def _spoiler_spans(text: str) -> list[tuple[int, int, str]]:
    if not (_LOGIN_CONTEXT.search(text) or _CONTEXT_WORD.search(text)
            or any(h in text.lower() for h in (*_PIN_HINTS, "door", "alarm", "safe", "lock"))):
        return []
    return [(m.start("secret"), m.end("secret"), "password") for m in _SPOILER.finditer(text)
            if _password_like(m["secret"]) and not _placeholder(m["secret"])]


# A message that speaks of a credential ("the key leaked in the build output, it was X", "pasted
# the prod token in #general: X") makes a random-looking token anywhere in it one, not only one
# right after its label. Mixed case, digits and high entropy (not a hex SHA, digest or trace id,
# not a UUID, not part of a path or URL, and not in a message about a public key).
_CONTEXT_WORD = re.compile(r"(?i)\b(?:secret|token|key|password|passwd|credentials?|creds|"
                           r"api[ _-]?key|leaked|exposed|compromised|revok(?:e|es|ed|ing)|"
                           r"rotat(?:e|es|ed|ing))s?\b")
# (a fingerprint is a public key's digest: "rotated the cert, new fingerprint SHA256: K7dJ…")
_PUBLIC_KEY = re.compile(r"(?i)public[ _-]?key|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|fingerprint")
_MIXED_TOKEN = re.compile(r"(?<![\w/+=.:@#$%-])(?=[\w-]*[a-z])(?=[\w-]*[A-Z])(?=[\w-]*[0-9])"
                          r"[A-Za-z0-9_-]{24,}(?![\w/+=@-]|\.\w)")
# The same in base64's own alphabet ("someone committed this to the public repo: wJalrXUtn/K7MD…
# rotating now" kept an AWS secret pasted without its key id): a '/' or '+' inside or '=' after
# ("the vault unseal key 3 of 5 is Yh8K…Mx4W="), no piece
# between the slashes a path's word ("src/workers/IngestWorker2/…" is a path), 4.5 bits a
# character (detect-secrets' own limit for base64).
_B64_TOKEN = re.compile(r"(?<![\w/+=.:@#$%-])(?=[\w/+]*[/+]|[\w/+]{30,}=)(?=[\w/+]*[a-z])"
                        r"(?=[\w/+]*[A-Z])(?=[\w/+]*[0-9])[A-Za-z0-9/+]{30,}={0,2}"
                        r"(?![\w/+=@-]|\.\w)")


def _path_piece(piece: str) -> bool:
    """A piece of a path: an English word, or words run together ("IngestWorker2")."""
    words = re.findall(r"[A-Z]?[a-z]+", piece)
    return bool(words) and "".join(words) == re.sub(r"\d+$", "", piece) \
        and all(english_word(w) for w in words)


def _context_spans(text: str) -> list[tuple[int, int, str]]:
    if not _CONTEXT_WORD.search(text) or _PUBLIC_KEY.search(text):
        return []
    found = [(m.start(), m.end(), "credential") for m in _MIXED_TOKEN.finditer(text)
             if _shannon(m.group()) >= _STRONG_BITS["base64"]]
    return found + [(m.start(), m.end(), "credential") for m in _B64_TOKEN.finditer(text)
                    if "//" not in m.group() and _shannon(m.group()) >= 4.5
                    and not any(_path_piece(p) for p in re.split(r"[/+]", m.group()))]


_GENERIC = {"credential", "password"}  # what a label says, when a token's shape says more


# Chat markup around a word (Slack's *bold* _italic_ ~strike~, Markdown's **bold**): "the admin
# password is _wombatcarrot_" kept its password, the underscores being part of a word to the
# patterns. The delimiters of a pair are read as spaces (every position kept, so the spans found
# are the text's own); a lone or inner one (DB_PASSWORD, p@ss*word) stays.
_PAIRED_MARKUP = re.compile(r"(?<![\w*~])([*_~]{1,2})(?=[^\s*_~])([^\n]*?[^\s*_~])\1(?![\w*~])")


def _without_markup(text: str) -> str:
    if not any(c in text for c in "*_~"):
        return text
    return _PAIRED_MARKUP.sub(lambda m: " " * len(m[1]) + m[2] + " " * len(m[1]), text)


# Characters that hide a secret from the rules without changing how it reads: invisible ones
# inside it ("Tr0u\u200bb4dor", a soft hyphen, a word joiner, joiners and direction marks), the
# fullwidth forms a CJK keyboard types ("ＰＡＳＳＷＯＲＤ： Ｔｒ０ｕｂ４ｄｏｒ" was stored whole), and
# the spaces and hyphens a document pastes ("password:\u00a0hunter2x9" from a wiki page, a
# no-break space after the colon, was stored whole). The rules read the text without the first
# and with the others as ASCII; the redaction is made in the text as written.
INVISIBLE = "\u200b\u00ad\u2060\ufeff\u180e"  # also dropped from stored text (memory.ingest_input)
# read as nothing too, but kept in the text: an emoji sequence's joiner, an RTL writer's marks
_MARKS = "\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_UNREAD = frozenset(INVISIBLE + _MARKS)
_SPACES = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f"
_AS_ASCII = {**{0xFF01 + i: 0x21 + i for i in range(94)}, 0x3000: 0x20,
             **{ord(c): 0x20 for c in _SPACES}, 0x2010: 0x2D, 0x2011: 0x2D}
_HIDING = re.compile(f"[{INVISIBLE}{_MARKS}{_SPACES}\u2010\u2011\uff01-\uff5e\u3000]")


def _as_read(text: str) -> tuple[str, list[int]]:
    """The text as the rules read it, and for each of its characters the index it came from."""
    kept = [i for i, c in enumerate(text) if c not in _UNREAD]
    return "".join(text[i] for i in kept).translate(_AS_ASCII), kept


def _spans_as_written(text: str) -> list[tuple[int, int, str]]:
    if not _HIDING.search(text):
        return _spans(_without_markup(text))
    read, index = _as_read(text)
    return [(index[a], index[b - 1] + 1, kind) for a, b, kind in _spans(_without_markup(read))]


def redact(text: str) -> tuple[str, list[str]]:
    """The text with secrets replaced, and the kinds found in order (for counts and logs, never
    values). Idempotent: markers are never matched again."""
    if not text:
        return text, []
    markers = [m.span() for m in MARKER.finditer(text)]
    spans = sorted((s for s in _spans_as_written(text)
                    if not any(s[0] < b and a < s[1] for a, b in markers)),
                   key=lambda s: (s[0], -s[1], s[2] in _GENERIC))
    merged: list[list] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:  # overlapping: one secret, named as specifically
            merged[-1][1] = max(merged[-1][1], end)  # as any of its matches names it
            if merged[-1][2] in _GENERIC and kind not in _GENERIC:
                merged[-1][2] = kind
            continue
        merged.append([start, end, kind])
    if not merged:
        return text, []
    out, last = [], 0
    for start, end, kind in merged:
        out += [text[last:start], marker(kind)]
        last = end
    out.append(text[last:])
    return "".join(out), [kind for _, _, kind in merged]
