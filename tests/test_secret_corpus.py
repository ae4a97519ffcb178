"""Secret redaction measured on the labelled corpus (tests/data/secret_corpus.jsonl): the recall
and false-positive rates the README reports are floors this test keeps, and the AWS secret key
that follows its key id (issue 12) is never stored, exported or said."""
from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from memory.redaction import redact
from tests.secret_corpus import leaked, load, score

CASES = load()


def shipped(text: str) -> str:
    return redact(text)[0]


def test_the_corpus_is_big_and_varied_enough():
    secrets = [c for c in CASES if c.is_secret]
    assert len(CASES) >= 200
    assert len({c.kind for c in secrets}) >= 20
    assert len(secrets) >= 100 and len(CASES) - len(secrets) >= 100
    assert {c.kind for c in CASES if not c.is_secret} >= {"sha", "uuid", "base64-code", "hash",
                                                           "version", "url"}


def test_recall_and_false_positive_rates_reported_in_the_readme():
    tuning = score(shipped, [c for c in CASES if c.set == "tuning"])
    heldout = score(shipped, [c for c in CASES if c.set == "heldout"])
    everything = score(shipped, CASES)
    assert (tuning.caught, tuning.secrets) == (148, 148), [c.text for c in tuning.missed]
    assert tuning.false_positives == 0, [shipped(c.text) for c in tuning.flagged]
    assert heldout.recall >= 43 / 43 and heldout.false_positives == 0
    assert everything.caught >= 313 and everything.false_positives == 0


def test_the_shapes_found_from_outside_are_caught_and_what_resembles_them_is_kept():
    """Lines written after a Stripe webhook secret pasted from a CI log reached memory (26 Nov):
    the providers the rules lacked (Stripe webhook, Sentry, PlanetScale, Pulumi, RubyGems,
    Terraform Cloud, Supabase, Mailgun, Brevo, Atlassian, GitLab runner, Doppler, Fly.io), a
    token a message calls a key or token away from its label, and ordinary lines that hold a
    SHA, a digest or a trace id beside the word "token" or "secret", and two Ubuntu IRC lines
    whose "password … is correct?" lost its word. Before: 6 of 18 caught, 5 of 9 ordinary lines
    changed."""
    found = score(shipped, [c for c in CASES if c.set == "found"])
    assert (found.caught, found.secrets) == (18, 18), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_passwords_pasted_in_prose_are_caught_and_what_resembles_them_is_kept():
    """Lines written on 27 Nov on how people paste a password with no "password:" before it:
    the value before its label ("use X as the admin password", "X is the password for the
    vault"), a label with nothing between ("Temporary password X expires", "(pw X)", "login is
    deploy, pass X"), and a login as "user / password" ("admin / X on the staging grafana",
    "demo@acme.io / X"); and ordinary lines of the same shapes ("use 1Password as the password
    manager", "admin / settings / billing", "JIRA-2231 / JIRA-2232", "client_secret: !Ref
    Param", an Ansible vault block); then PINs and door codes, a .pgpass line and "user:X@host"
    without a scheme, beside a GPIO pin, a date, mailto: and git@ addresses. Before: 1 of 20
    fresh lines caught, 2 of 24 changed; the held-out ones, scored once on the first rules
    written for the fresh ones: 7 of 10, 2 of 10."""
    for name, caught in (("fresh", 22), ("heldout-27nov", 10)):
        found = score(shipped, [c for c in CASES if c.set == name])
        assert found.caught >= caught, [shipped(c.text) for c in found.missed]
        assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_logins_pasted_in_ops_chat_are_caught_and_what_resembles_them_is_kept():
    """Lines written on 27 Nov from an ops channel's pastes: a value pointed at its label ("X <-
    that's the pw for the NAS"), by what it opens ("the new one is X, that's for the root
    account"), a TOTP seed, a list of recovery codes (only the first was redacted: the others
    stayed in the answer), a passphrase of words, an htpasswd hash, a vault unseal key, "creds
    -> admin:X", a label with an aside ("new VPN password (expires Friday): X"); and ordinary
    lines of the same words ("the unseal key ceremony is on Monday", "recovery codes are
    printed and in the safe", "$5 to $6 per seat"). Before: 10 of 19 caught, 0 of 18 changed."""
    found = score(shipped, [c for c in CASES if c.set == "fresh-27nov-b"])
    assert (found.caught, found.secrets) == (19, 19), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_held_out_ops_lines_scored_once_then_fixed():
    """Lines written on 27 Nov after the rules for the ops channel's pastes, scored once before
    any change: 11 of 13 secrets caught, 0 of 7 ordinary lines changed. Missed were "DB pass for
    the replica is X" ("pass" after what it opens is the noun) and "root pw → X" (an arrow as the
    operator); both are caught now, and "did the db pass the checks?" (written after the fix, as
    its guard) is kept."""
    found = score(shipped, [c for c in CASES if c.set == "heldout-27nov-b"])
    assert (found.caught, found.secrets) == (13, 13), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


@pytest.mark.parametrize("template", [
    "new creds: {key} / {secret}",
    "use {key} (secret {secret}) until Friday",
    "{key}\n{secret}",
    "`{key}:{secret}`",
    "here you go {key} {secret}",
])
def test_an_aws_secret_key_after_its_key_id_is_redacted(template):
    key, secret = "AKIA" + "QX7RTM2ZKP4LWN3Y", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "9Kq2Lm8ZtR"
    out, kinds = redact(template.format(key=key, secret=secret))
    assert key not in out and not leaked(secret, out)
    assert kinds.count("aws-access-key") == 1 and kinds.count("aws-secret-key") == 1


def test_redaction_is_idempotent_on_the_corpus():
    for case in CASES:
        once = shipped(case.text)
        assert redact(once) == (once, []), case.number


def test_markers_name_the_kind_and_nothing_of_the_value():
    out, kinds = redact("STRIPE_SECRET_KEY=sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + " and "
                        "postgres://app:" + "Sup3r-Secret" + "@db/app")
    assert out == "STRIPE_SECRET_KEY=[REDACTED:stripe-key] and postgres://app:" \
                  "[REDACTED:url-password]@db/app"
    assert kinds == ["stripe-key", "url-password"]


def test_the_scanner_never_reaches_the_network(monkeypatch):
    """detect-secrets can verify tokens against their providers; Lurker only reads its patterns."""
    import requests

    def refuse(*args, **kwargs):
        raise AssertionError("redaction tried to reach the network")

    monkeypatch.setattr(requests.Session, "request", refuse)
    assert score(shipped, CASES).caught > 0


def test_threads_share_nothing_mutable(monkeypatch):
    expected = [shipped(c.text) for c in CASES]
    # the English word list is read on first use: eight threads may all ask for it at once
    from memory import text

    monkeypatch.setattr(text, "_english_words", None)
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            assert list(pool.map(shipped, [c.text for c in CASES])) == expected


@pytest.mark.parametrize("text, value", [
    ("my password is bluefrogmaple btw lol", "bluefrogmaple"),
    ("wifi pw is letmein", "letmein"),
    ("DB_PASSWORD=supersecret", "supersecret"),
    ("PGPASSWORD=qwerty psql -h db -U app", "qwerty"),
    ('password = "hunter"', "hunter"),
    ("the password is CorrectHorseBattery", "CorrectHorseBattery"),
    # chat markup around it: the underscores read as part of a word, and a code span's "&" ended
    # the value ("`[REDACTED:password]&3`")
    ("the admin password is _wombatcarrot_", "wombatcarrot"),
    ("password: `Tr0ub4dor&3`", "&3"),
    ("db password is *S3cretP@ss*", "S3cretP@ss"),
])
def test_a_password_of_letters_or_in_chat_markup_is_redacted_whole(text, value):
    out, kinds = redact(text)
    assert value not in out and kinds == ["password"], out


@pytest.mark.parametrize("text", [
    "the password is wrong, try again",
    "password is locked in the keyring",
    "the password is hardcoded in the installer",  # a participle the word list lacks
    "root password is unset on a fresh install",
    "the secret to fast builds is caching",  # prose takes letters after a password label only
    "password = userPassword",  # a variable named for what it holds
    "TOKENIZER=wordpiece",  # the name does not end with the credential word
    "password_hash: bcryptish",
    "my password is Fluffy",  # an English word: kept, the price of the rule
])
def test_a_word_after_a_password_label_is_kept(text):
    assert redact(text) == (text, [])


def test_a_password_of_letters_is_never_stored_exported_or_said(service, profile_name):
    profile = service.profile(profile_name)
    profile.ingest([{"role": "user", "author": "li",
                     "content": "the launch is next Friday. my password is bluefrogmaple btw"},
                    {"role": "user", "author": "li",
                     "content": "and the staging env has DB_PASSWORD=violetorbit"}], "s1")
    exported = "\n".join(profile.export())
    said = profile.recall("what is li's password?").model_dump_json()
    for text in (exported, said):
        assert "bluefrogmaple" not in text and "violetorbit" not in text
    assert exported.count("[REDACTED:password]") >= 2


def test_the_aws_pair_is_never_stored_exported_or_said(service, profile_name):
    key, secret = "AKIA" + "JQ4ZP7XRW2MNT5KL", "Kp7Hq2Vx9Lm4Rt8Zw1Nc6Bf3Dg5Sj0Ya" + "/eU+iO2q"
    profile = service.profile(profile_name)
    profile.ingest([{"role": "user", "author": "lee",
                     "content": f"backup bucket creds: {key} / {secret}"},
                    {"role": "user", "author": "lee",
                     "content": f"the backup uploader uses {key} (secret {secret})"}], "s1")
    exported = "\n".join(profile.export())
    answer = profile.recall("what are the backup bucket creds?")
    said = answer.model_dump_json()
    for text in (exported, said):
        assert key not in text and not leaked(secret, text)
    assert "[REDACTED:aws-secret-key]" in exported
    assert all(json.loads(line).get("kind") for line in exported.splitlines())


def test_chat_events_carry_no_secret_to_the_broker_or_the_spool(tmp_path):
    """Redacted when the event is made, so neither Redis nor the bot's spool file holds the
    secret; the worker's message id is the one direct ingestion gives the raw text."""
    from workers.sinks import QueueSink
    from memory.config import Settings
    from memory.ingest_input import to_messages
    from tests.harness import free_port
    from workers import app as app_module
    from workers.enqueue import EventPublisher
    from workers.events import parse_event

    raw = "prod deploy key: AKIA" + "JQ4ZP7XRW2MNT5KL / Kp7Hq2Vx9Lm4Rt8Zw1Nc6Bf3Dg5Sj0Ya/eU+iO2q"
    event = {"type": "message.created", "profile": "slack:T1:CGEN", "session_id": "CGEN:day",
             "external_id": "slack:T1:CGEN:1", "author": "lee", "content": raw,
             "ts": "2026-11-16T09:00:00Z"}
    parsed = parse_event(event)
    assert "[REDACTED:aws-secret-key]" in parsed.content and "Kp7Hq2Vx9" not in parsed.content
    now = parsed.ts
    assert to_messages([parsed.message()], "CGEN:day", now, 10**6)[0].id == \
        to_messages([{"role": "user", "content": raw, "ts": now}], "CGEN:day", now, 10**6)[0].id
    app_module.configure(Settings(broker_url=f"redis://127.0.0.1:{free_port()}/0"))  # nobody
    spool = tmp_path / "events.jsonl"
    sink = QueueSink(EventPublisher(), spool=spool, retry_max_s=0.2)
    try:
        assert sink.publish([event]).published == 1
        held = spool.read_text(encoding="utf-8")
        assert "[REDACTED:aws-secret-key]" in held and "Kp7Hq2Vx9" not in held \
            and "JQ4ZP7XRW2MNT5KL" not in held
    finally:
        sink.close()
        app_module.configure(Settings())


def test_a_list_of_logins_under_its_heading_is_caught_and_other_lists_are_kept():
    """Lines written on 27 Nov: a note's list of logins under a heading that says what it holds
    ("Creds for staging:", "- db: X"; "Passwords:", "• wifi: X"), each item labelled by its
    system, not "password"; and lists of the same words that hold none ("Password policy:",
    "- length: 12"; "Credentials rotation owners:", "- grafana: maya"). Before: 0 of 5 caught, 0
    of 5 lists changed; the rule's first version changed "Logins per region:", "- eu: 12,400"
    (counts are kept now) and, in BEAM dev's pasted code, "data = request.get_json()" under
    "def login():" (26 messages); two such lines were added after that fix, as its guards."""
    found = score(shipped, [c for c in CASES if c.set == "lists-27nov-c"])
    assert (found.caught, found.secrets) == (5, 5), \
        [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_secret_pasted_with_a_documents_spaces_and_marks_is_caught():
    """Lines written on 27 Nov on what a wiki or a doc pastes around a secret: a no-break space
    after "password:" (Confluence, Notion), a figure or narrow no-break space, direction
    isolates from an RTL interface; and ordinary lines with the same characters (a no-break
    space inside "password policy", an emoji family's joiners). Before: 3 of 6 caught (a
    no-break space after the colon or around "=", a figure space: stored whole)."""
    found = score(shipped, [c for c in CASES if c.set == "pasted-27nov-d"])
    assert (found.caught, found.secrets) == (6, 6), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_what_the_rules_read_through_is_kept_in_the_text():
    """A token typed with no-break hyphens is read as one; what is read as nothing stays in the
    text where no secret is (an emoji family's joiners, a right-to-left mark)."""
    token = "xoxb\u2011123456789012\u20111234567890123\u2011AbCdEfGhIjKlMnOpQrStUvWx"
    assert shipped(f"bot token {token}") == "bot token [REDACTED:slack-token]"
    for text in ("family \U0001F468\u200d\U0001F469\u200d\U0001F467 photo",
                 "\u05e9\u05dc\u05d5\u05dd\u200f: see you at 10"):
        assert shipped(text) == text


def test_a_secret_in_an_app_s_card_is_caught():
    """Lines written on 27 Nov as bot/app_content.py writes an app's card (fields in brackets, a
    secret's label kept with its colon), and ordinary cards beside them ("Token rotation
    reminder", "Secret santa"). Before: "Secret: StormLemonViolet." was stored whole (a word
    password followed by the card's full stop)."""
    found = score(shipped, [c for c in CASES if c.set == "cards-27nov-e"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_secret_behind_a_spoiler_a_change_or_as_words_is_caught():
    """Lines written on 27 Nov from how people paste on Discord and after a rotation: a value
    behind a spoiler in a message about a way in ("guest wifi: ||X||", "door code: ||X||"), a
    password said after "changed to", "changed from … to" or "now" with "pw" for its label, and
    a passphrase of words written apart ("passphrase: correct horse battery staple"); and
    ordinary lines of the same shapes (a spoiler of a plot or a version, "passphrase: use the
    one in 1Password", "the password policy now requires 12 characters", a shell's "|| true").
    Before: 1 of 9 caught."""
    found = score(shipped, [c for c in CASES if c.set == "spoilers-27nov-f"])
    assert (found.caught, found.secrets) == (9, 9), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_secret_pasted_in_a_leak_or_a_rotation_is_caught():
    """Lines written on 27 Nov (sixth session) from a security channel: a secret pasted while
    saying it leaked, was exposed or compromised, or is being rotated or revoked, with no label
    or key id before it ("someone committed this to the public repo: wJalr…/K7MD… rotating now"
    was stored whole); and ordinary lines of the same words with paths, a fingerprint and a
    digest in them, and a vault unseal key said after "key 3 of 5 is". Before: 0 of 7 caught."""
    found = score(shipped, [c for c in CASES if c.set == "leaks-27nov-g"])
    assert (found.caught, found.secrets) == (7, 7), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_azure_connection_strings_with_a_key_of_any_length_are_caught():
    """Lines written on 28 Nov (tenth session): Azure connection strings whose key is not the 88
    characters of a storage account's (Service Bus's, or one cut short), and prose about the
    account key. Before: 1 of 2 caught (the AccountKey stored whole)."""
    found = score(shipped, [c for c in CASES if c.set == "conn-28nov-i"])
    assert (found.caught, found.secrets) == (2, 2), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_openssl_passwords_and_recovery_phrases_are_caught():
    """Lines written on 28 Nov (tenth session): openssl's passwords on its command line ("-k X",
    "-passin pass:X") and a wallet's recovery phrase after its label; and lines of the same
    words that hold none. Before: 1 of 4 caught ("-passin pass:X" only)."""
    found = score(shipped, [c for c in CASES if c.set == "cli-28nov-j"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_base36_mailgun_notion_tokens_and_a_password_said_with_an_apostrophe_are_caught():
    """Lines written on 4 Dec (eleventh session): a Mailgun key as its docs print it (base 36,
    the rule took hex only), a Notion integration token ("ntn_"), "the password's X" ("'s" for
    "is"), a passphrase of words ending in a number; and lines of the same words holding none.
    Before: 1 of 5 caught (the Notion token, after its label "token")."""
    found = score(shipped, [c for c in CASES if c.set == "misc-04dec-k"])
    assert (found.caught, found.secrets) == (5, 5), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_provider_tokens_found_on_4_dec_twelfth_session():
    """Lines written on 4 Dec (twelfth session) for providers the rules lacked, each pasted with
    no label a rule reads (a 1Password service account, Netlify, Resend, SonarQube, Airtable,
    Groq, Replicate, Figma, Heroku's new keys; shapes as gitleaks' rules give them), a wifi's
    pass or key after its network ("wifi: Guest / pass X", "SSID: AcmeGuest, key: X"), and lines
    naming their prefixes, like-looking code or the same words that hold none. Before: 5 of 11
    caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-04dec-l"])
    assert (found.caught, found.secrets) == (11, 11), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_passphrases_and_personal_numbers_found_on_5_dec_fourteenth_session():
    """Lines written on 5 Dec (fourteenth session): a passphrase of words after "pw for …:" or
    "password:" (only "passphrase" was read so), a social security number and a payment card's
    number (no rule read either: "what is eve's SSN?" answered it); and lines like them holding
    none (a policy after "password policy:", phone numbers, an order number failing the Luhn
    check, Discord ids, an SSN no one is given, Slack timestamps). Before: 0 of 6 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-m"])
    assert (found.caught, found.secrets) == (6, 6), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_bank_and_identity_numbers_found_on_5_dec_fifteenth_session():
    """Lines written on 5 Dec (fifteenth session): a bank account's number where bank details
    are given (after a routing number, a sort code, "Bank of America"), an IBAN, a passport's and
    a driving licence's number (no rule read any: they were stored and answered back); and lines
    like them holding none (a customer's account number with no bank word, a bank holiday,
    "passport expired", a build named "US42", a routing number alone (public), a licence count).
    Before: 0 of 6 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-n"])
    assert (found.caught, found.secrets) == (6, 6), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_places_code_and_a_presigned_url_found_on_5_dec_fifteenth_session():
    """Also written on 5 Dec (fifteenth session): a code named by what it opens after it ("the
    code to the supply closet is …") and a presigned S3 URL's signature (only its access key id
    was redacted, when there was one); and like lines holding none (an error code, code review,
    a code that is somewhere). Before: 0 of 3 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-o"])
    assert (found.caught, found.secrets) == (3, 3), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_an_encoded_private_key_and_codes_said_with_where_found_on_5_dec_sixteenth_session():
    """Written on 5 Dec (sixteenth session): a kubeconfig's "client-key-data:", a private key
    base64-encoded whole (a whole one was caught by its entropy; its first line alone, pasted cut
    short, was stored and answered back: no rule saw a PEM header in it), a code with who sent
    it or where it is between ("the OTP they texted me is …", "the safe combo in the office is
    …"); and like lines holding none (a certificate's data, public; a combo of a budget; an error
    code and a pin of a board; an OTP that never came). Before: 2 of 5 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-p"])
    assert (found.caught, found.secrets) == (5, 5), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_secret_key_a_shared_secret_and_a_changed_code_found_on_5_dec_seventeenth_session():
    """Written on 5 Dec (seventeenth session): 1Password's Secret Key, labelled "secret key"
    (its "A3-…" groups of capitals and digits were stored: "secret" alone was a label, and
    "key" was taken as its value), a shared secret or PSK of hyphen-joined words, a code said
    with "changed to" or "is now"; and like lines holding none (where the key is, that keys are
    rotated, a door code changed to "the keypad one", "the secret: keep-it-simple-stupid").
    Before: 0 of 6 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-q"])
    assert (found.caught, found.secrets) == (6, 6), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_services_key_with_no_credential_word_found_on_5_dec_eighteenth_session():
    """Written on 5 Dec (eighteenth session): a key named by its service alone ("wandb key for
    the shared project if anyone needs it: <40 hex>" was stored and answered back to "what's
    the wandb key?": "key" alone was no label), and like lines holding none (a commit "the key
    change" is in, a cache key, a partition key, an object's key). Before: 0 of 4 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-05dec-r"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_short_password_after_with_and_a_cards_code_found_on_6_dec_twentieth_session():
    """Written on 6 Dec (twentieth session): "ssh root@10.0.0.5 with password hunter2 if the
    bastion is down" was stored and answered back (seven characters after no "is" or colon),
    and "… exp 12/28 cvv 847" kept the card's code once its number was taken; and like lines
    holding none (a pass rate, a password reset flow, a password manager, a CVV field, a
    migration's pass 2). Before: 0 of 4 caught."""
    found = score(shipped, [c for c in CASES if c.set == "misc-06dec-s"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


@pytest.mark.parametrize("text, value", [
    # (a letter outside bech32's: a key pasted with a typo is still the key)
    ("age key for sops: AGE-SECRET-KEY-1QQPSZ2Z7X8WQ9K3JD7N5V6M4L2H8G0F9E3C1B7A5S2D4F6G8H0J2K4L6M"
     "8N0P", "QQPSZ2Z7X8WQ9K3JD7N5V6M4L2H8G0F9E3C1B7A5S2D4F6G8H0J2K4L6M8N0P"),
    # (a Terraform Cloud token cut short in a paste)
    ("TFC token is Xq7Lm2Np9Rs4Tv.atlasv1.Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9Cd1Ef3Gh5Ij7Kl9"
     "Mn", "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7"),
])
def test_a_key_known_by_its_prefix_is_caught_when_its_letters_are_off(text, value):
    """6 Dec (twenty-second session), pasted into `lurker ingest` and found whole in the SQLite
    file: an age key with a "B" (bech32 has none) and a Terraform Cloud token shorter than the
    rule's 60 letters after ".atlasv1."."""
    assert value not in shipped(text) and "[REDACTED:" in shipped(text), shipped(text)


@pytest.mark.parametrize("text", [
    "age keys start with AGE-SECRET-KEY-1 followed by bech32",
    "the TFC token format is <id>.atlasv1.<secret>",
])
def test_a_keys_prefix_named_without_a_key_is_kept(text):
    assert shipped(text) == text


def test_a_password_named_in_another_language_found_on_6_dec_twenty_fourth_session():
    """Written on 6 Dec (twenty-fourth session): a password named in Spanish, German, French,
    Portuguese, Italian or Dutch ("la contraseña del wifi de invitados es …", "Passwort für den
    Staging-Server: …", "le mot de passe admin est …", "a senha do banco é …") was stored and
    answered back; and like lines holding none (a password's length, its expiry, a forgotten
    one's link, "la clave del éxito"). Before: 0 of 8 caught."""
    found = score(shipped, [c for c in CASES if c.set == "foreign-06dec-x"])
    assert (found.caught, found.secrets) == (8, 8), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_key_said_as_one_of_several_found_on_7_dec_twenty_eighth_session():
    """Written on 7 Dec (twenty-eighth session): a key said as which of several it is ("vault
    unseal key 1 of 3: <hex>", "recovery key #2: …", "signing key 2/3 = …") was stored and
    answered back whole; and like lines holding none. Before: 1 of 3 caught (the base64 one, by
    its entropy)."""
    found = score(shipped, [c for c in CASES if c.set == "shares-07dec-y"])
    assert (found.caught, found.secrets) == (3, 3), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_password_quoted_after_its_user_or_spelled_out_found_on_7_dec_twenty_ninth_session():
    """Written on 7 Dec (twenty-ninth session): "creds for staging: user `admin` pass `<pw>`"
    (the value in backticks after a user and "pass") and "pw is the usual one + 2026, i.e. <pw>"
    (the value after what it is said to be) were stored and answered back whole; and like lines
    holding none. Before: 1 of 4 caught."""
    found = score(shipped, [c for c in CASES if c.set == "pairs-07dec-z"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_code_to_a_place_found_on_7_dec_thirtieth_session():
    """Written on 7 Dec (thirtieth session): "the garage code changed to 8842" (a code named by
    the place it opens, not one of door, gate, alarm …) was stored and answered back whole; and
    like lines holding none. Before: 1 of 4 caught (the key a shell sets)."""
    found = score(shipped, [c for c in CASES if c.set == "codes-07dec-30"])
    assert (found.caught, found.secrets) == (4, 4), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_an_app_password_as_google_gives_one_found_on_7_dec_thirty_second_session():
    """Written on 7 Dec (thirty-second session): "my gmail app password is abcd efgh ijkl mnop
    for the alerts mailer" (four groups of four letters, as Google prints them) was stored and
    quoted back whole; and lines of the same words holding none. Before: 1 of 2 caught (after
    a colon, as words)."""
    found = score(shipped, [c for c in CASES if c.set == "apppw-07dec-32"])
    assert (found.caught, found.secrets) == (2, 2), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_password_said_to_be_so_now_found_on_7_dec_thirty_third_session():
    """Written on 7 Dec (thirty-third session): "the wifi password in the office is now
    correct-horse-battery-staple" (an adverb between "is" and the value) was stored and quoted
    back whole; and like lines holding none. Before: 0 of 2 caught."""
    found = score(shipped, [c for c in CASES if c.set == "now-07dec-33"])
    assert (found.caught, found.secrets) == (2, 2), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_codes_after_an_aside_or_with_no_colon_found_on_7_dec_thirty_third_session():
    """Written on 7 Dec (thirty-third session): "otp backup codes <c1> <c2> <c3>" (no colon
    after the label), "the alarm code is the same as the old one plus 1: <pin>" and "door code
    (new): <pin>" (words or an aside between the label and its colon) were stored and quoted
    back whole; and like lines holding none. Before: 0 of 3 caught."""
    found = score(shipped, [c for c in CASES if c.set == "codes-07dec-33"])
    assert (found.caught, found.secrets) == (3, 3), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_code_named_by_the_box_it_opens_found_on_7_dec_thirty_third_session():
    """Written on 7 Dec (thirty-third session): "the lockbox for the spare key is 5512 now" (a
    box's code with no "code" said) was stored and quoted back whole; and like lines holding
    none. Before: 0 of 2 caught."""
    found = score(shipped, [c for c in CASES if c.set == "box-07dec-33"])
    assert (found.caught, found.secrets) == (2, 2), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]


def test_a_guest_network_said_as_its_key_found_on_8_dec_thirty_fourth_session():
    """Written on 8 Dec (thirty-fourth session): "guest wifi is ChezMarco2026" (the network's
    key said as the network, as a café's or a flat's chat says it) was stored and quoted back
    whole; and like lines naming the network's kind, speed or state. Before: 0 of 2 caught."""
    found = score(shipped, [c for c in CASES if c.set == "wifi-08dec-34"])
    assert (found.caught, found.secrets) == (2, 2), [shipped(c.text) for c in found.missed]
    assert found.false_positives == 0, [shipped(c.text) for c in found.flagged]
