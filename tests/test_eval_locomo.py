"""`lurker eval locomo` on a small conversation written here in LoCoMo's published shape (the real
data is read from ../shared at run time and never copied into the project)."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from memory.errors import LurkerError
from memory.eval.baselines import TurnIndex
from memory.eval.locomo import (BM25_RAW, DENSE_E5, DENSE_RAW, ES_HYBRID_RAW, FUSED, HYBRID_RAW,
                                SYSTEMS, Budgets, load_locomo, normalize_evidence, run_locomo)
from memory.eval.metrics import (answer_score, decline_rates, evidence_recall, is_decline,
                                 multi_hop_f1, record_dia_ids, token_f1)
from memory.models import Memory, Message

SAMPLE = [{
    "sample_id": "tiny-1",
    "conversation": {
        "speaker_a": "Jon", "speaker_b": "Gina",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Jon", "dia_id": "D1:1", "text": "Hey Gina! I lost my job at the bank."},
            {"speaker": "Gina", "dia_id": "D1:2", "text": "Oh no! What will you do now?"},
            {"speaker": "Jon", "dia_id": "D1:3",
             "text": "I am opening a dance studio downtown, I have always loved dancing."},
            {"speaker": "Gina", "dia_id": "D1:4", "text": "Wow. I started a clothing store online "
             "yesterday, it sells urban streetwear."},
        ],
        "session_2_date_time": "10:04 am on 20 June, 2023",
        "session_2": [
            {"speaker": "Jon", "dia_id": "D2:1", "text": "The studio opened last Friday!",
             "img_url": ["x"], "blip_caption": "a photo of a dance floor with mirrors"},
            {"speaker": "Gina", "dia_id": "D2:2", "text": "Congrats! Which city is it in?"},
            {"speaker": "Jon", "dia_id": "D2:3", "text": "Boston, right by the harbour."},
        ],
    },
    "qa": [
        {"question": "What business did Jon start?", "answer": "a dance studio",
         "evidence": ["D1:3"], "category": 4},
        {"question": "When did Gina start her clothing store?", "answer": "7 May 2023",
         "evidence": ["D1:4"], "category": 2},
        {"question": "Which city is Jon's dance studio in?", "answer": "Boston",
         "evidence": ["D:2:3", "D2:2; D2:1"], "category": 1},
        {"question": "What did Gina lose at the bank?", "adversarial_answer": "her job",
         "evidence": ["D1:1"], "category": 5},
        {"question": "What does Jon like?", "answer": "dancing", "evidence": ["D9:9"],
         "category": 3},
    ],
}]


@pytest.fixture
def data_file(tmp_path):
    path = tmp_path / "locomo-tiny.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    return path


# --- loading -------------------------------------------------------------------------------------
def test_loads_sessions_turns_dates_photos_and_evidence(data_file):
    (conv,) = load_locomo(data_file)
    assert [len(s.turns) for s in conv.sessions] == [4, 3]
    assert conv.sessions[0].started.isoformat() == "2023-05-08T13:56:00+00:00"
    assert conv.sessions[1].turns[0].content.endswith("[shares a photo: a photo of a dance floor "
                                                      "with mirrors]")
    q = conv.questions[2]
    assert q.evidence == ["D2:3", "D2:2", "D2:1"]  # "D:2:3" and "D2:2; D2:1" normalised
    assert conv.questions[3].gold is None and conv.questions[3].adversarial_answer == "her job"
    assert conv.questions[4].evidence == [] and conv.evidence_dropped == ["D9:9"]
    assert conv.profile_name == "locomo:tiny-1"
    assert conv.now.date().isoformat() == "2023-06-21"


def test_normalize_evidence_keeps_order_without_duplicates():
    assert normalize_evidence(["D3:12", "D:3:12", "D8:6; D9:17"]) == ["D3:12", "D8:6", "D9:17"]


def test_bad_files_get_a_clear_error(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("[{", encoding="utf-8")
    with pytest.raises(LurkerError, match="invalid JSON"):
        load_locomo(broken)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"questions": []}), encoding="utf-8")
    with pytest.raises(LurkerError, match="not LoCoMo data"):
        load_locomo(other)


def test_the_bm25_baseline_indexes_labelled_turns():
    index = TurnIndex({"m1": "Jon: I am opening a dance studio", "m2": "Gina: my store is online",
                       "m3": "Jon: lol"})
    assert index.search("Where is Gina's store?", 5) == ["m2"]
    assert index.search("dancing studios", 5) == ["m1"]  # Porter stems
    assert set(index.search("What did Jon say?", 5)) == {"m1", "m3"}
    assert index.search("what is it?", 5) == []  # only function words: no query


# --- metrics -------------------------------------------------------------------------------------
def test_evidence_recall_counts_turns_covered_by_memories_and_messages():
    by_message = {"m1": ["D1:1"], "m2": ["D1:2", "D1:5"], "m3": ["D1:3"]}
    memory = Memory(id="x", type="fact", content="c", source_message_ids=["m2", "m3"],
                    created_at="2023-05-08T00:00:00Z")
    message = Message(id="m1", session_id="s", role="user", content="c", ts="2023-05-08T00:00:00Z")
    ranked = [record_dia_ids(memory, by_message), record_dia_ids(message, by_message)]
    assert ranked == [["D1:2", "D1:5", "D1:3"], ["D1:1"]]
    assert evidence_recall(["D1:1", "D1:3"], ranked, 1) == 0.5
    assert evidence_recall(["D1:1", "D1:3"], ranked, 2) == 1.0
    assert evidence_recall([], ranked, 2) is None


def test_answer_scores_follow_locomo():
    assert token_f1("The dance studio!", "a dance studio") == 1.0
    assert token_f1("dancing studios", "dance studio") == 1.0  # Porter stems
    assert token_f1("Boston", "Chicago") == 0.0
    assert multi_hop_f1("Boston, dancing", "dancing, Boston") == 1.0
    assert is_decline("I don't have anything about that in memory.")
    assert not is_decline("Boston.")
    assert answer_score("No information available.", None, 5) == 1.0
    assert answer_score("her job", None, 5) == 0.0


def test_decline_rates_of_adversarial_and_answerable_questions():
    records = [{"category": 5, "declined": True}, {"category": 5, "declined": False},
               {"category": 2, "declined": True}, {"category": 4, "declined": False},
               {"category": 1, "declined": False}, {"category": 3, "declined": False}]
    assert decline_rates(records) == {"adversarial": 0.5, "false": 0.25}
    assert decline_rates([]) == {"adversarial": None, "false": None}


# --- the harness end to end ----------------------------------------------------------------------
def test_run_scores_every_system_on_the_real_engine(service, data_file):
    conversations = load_locomo(data_file)
    report = run_locomo(service, conversations, Budgets(ks=(1, 3, 10), turns=(1, 3, 10),
                                                        chars=(100, 1000)))
    es = type(service.store).__name__ == "ElasticsearchStore"
    assert set(report["systems"]) == set(SYSTEMS) - {DENSE_E5} - (set() if es else {ES_HYBRID_RAW})
    assert HYBRID_RAW in report["systems"]
    assert report["questions"] == 5 and report["questions_with_evidence"] == 4
    records = {r["index"]: r for r in report["records"]}
    # the turn says "I am opening a dance studio": the BM25 baseline shares only "Jon" with the
    # question (as every turn of Jon's does), the memory ("Jon is opening ...") and vectors do more
    assert records[0]["recall"][FUSED]["@3"] == 1.0
    assert records[0]["recall"][BM25_RAW]["@3"] == 0.0
    assert records[4]["recall"][FUSED]["@3"] is None  # no evidence left: out of recall
    # the temporal answer carries the date resolved from "yesterday" on 8 May
    assert "7 May 2023" in records[1]["answer"]
    # the adversarial question names Gina, whose job was not lost: declined
    assert records[3]["declined"] and records[3]["answer_score"] == 1.0
    assert report["systems"][DENSE_RAW]["recall"]["@10"]["overall"] > 0
    assert report["latency_ms"]["p50"] > 0
    assert report["answers"]["false_decline_rate"] == decline_rates(report["records"])["false"]


def test_cli_prints_the_table_and_writes_json(data_file, tmp_path):
    out = tmp_path / "results.json"
    env_store = f"sqlite:///{tmp_path / 'eval.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "memory.cli", "eval", "locomo", "--data", str(data_file),
         "--k", "1,5", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "LURKER_STORE": env_store})
    assert done.returncode == 0, done.stderr
    assert "fused" in done.stdout and "bm25-raw" in done.stdout and "dense-raw" in done.stdout
    assert "token-F1 only" in done.stdout and "false declines" in done.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["config"]["ks"] == [1, 5] and len(report["records"]) == 5
    missing = subprocess.run(
        [sys.executable, "-m", "memory.cli", "eval", "locomo", "--data", str(tmp_path / "no.json")],
        capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "LURKER_STORE": env_store})
    assert missing.returncode != 0 and "no.json" in missing.stderr


# --- budgets, credit and the BEAM shape ----------------------------------------------------------
def test_zero_padded_dia_ids_are_the_same_turn(tmp_path):
    from memory.eval.locomo import normalize_dia_id

    assert normalize_evidence(["D30:05", "D30:5", "D:3:012"]) == ["D30:5", "D3:12"]
    assert normalize_dia_id("D01:007") == "D1:7" and normalize_dia_id("nothing") is None
    sample = json.loads(json.dumps(SAMPLE))
    sample[0]["conversation"]["session_2"][2]["dia_id"] = "D2:03"  # padded in the turns too
    sample[0]["qa"][2]["evidence"] = ["D02:003"]
    path = tmp_path / "padded.json"
    path.write_text(json.dumps(sample), encoding="utf-8")
    (conv,) = load_locomo(path)
    assert conv.questions[2].evidence == ["D2:3"] and conv.evidence_dropped == ["D9:9"]
    assert conv.sessions[1].turns[2].dia_id == "D2:3"


def test_a_memory_is_credited_only_with_the_turns_it_carries():
    from memory.eval.metrics import carries, shown

    question, answer = "Which team did you sign with?", "I signed with the Minnesota Wolves!"
    content = "John signed with the Minnesota Wolves!"
    assert carries(content, answer) and not carries(content, question)
    # a short answer kept with its question in its content carries both
    assert carries("Which team did John sign with? John: The Minnesota Wolves!", question)
    memory = Memory(id="x", type="fact", content=content, source_message_ids=["a", "q"],
                    created_at="2023-05-08T00:00:00Z")
    scored = shown(memory, {"q": ["D1:1"], "a": ["D1:2"]}, {"q": question, "a": answer})
    assert scored.cited == ("D1:2", "D1:1") and scored.carried == ("D1:2",)
    assert scored.chars == len(content)


def test_turn_and_character_budgets():
    from memory.eval.metrics import char_budget, covered_recall, turn_budget

    ranking = [["D1:1", "D1:2"], ["D1:1"], ["D1:3"], ["D1:4", "D1:5"]]
    assert turn_budget(ranking, 2) == ["D1:1", "D1:2"]  # a two-turn result fills two
    assert turn_budget(ranking, 4) == ["D1:1", "D1:2", "D1:3", "D1:4"]  # repeats cost nothing
    assert turn_budget([], 3) == []
    texts = [(["D1:1"], 1500), (["D1:2"], 600), (["D1:3"], 400), (["D1:4"], 100)]
    assert char_budget(texts, 2000) == ["D1:1", "D1:3", "D1:4"]  # D1:2 does not fit: skipped
    assert covered_recall(["D1:1", "D1:9"], ["D1:1"]) == 0.5
    assert covered_recall([], ["D1:1"]) is None


def test_rrf_and_the_embedding_cache(tmp_path, embedder):
    from memory.eval.baselines import CachedEmbedder, EmbeddingCache, rrf

    assert rrf([["a", "b", "c"], ["b", "c"]]) == ["b", "c", "a"]
    cache = EmbeddingCache(tmp_path / "vectors.sqlite3")
    cached = CachedEmbedder(embedder, cache)
    first = cached.embed(["the deploy freeze", "use pnpm"])
    again = cached.embed(["use pnpm", "a new text"])
    assert (cache.hits, cache.misses) == (1, 3)
    assert np.allclose(again[0], first[1]) and np.allclose(first, embedder.embed(
        ["the deploy freeze", "use pnpm"]), atol=1e-6)
    assert cached.spec == embedder.spec
    cache.close()


BEAM_SAMPLE = [{
    "sample_id": "beam-tiny",
    "conversation": {
        "speaker_a": "Jordan", "speaker_b": "Assistant",
        "session_1_date_time": "10:00 am on 15 March, 2024",
        "session_1": [
            {"speaker": "Jordan", "dia_id": "D1:0",
             "text": "I'm building a budget tracker in Flask and need a schedule for it."},
            {"speaker": "Assistant", "dia_id": "D1:1", "text": "\n\n".join(
                [f"Step {i}: plan the milestone, estimate the tasks, and review progress weekly "
                 "so that the schedule stays realistic for a solo developer. " * 2
                 for i in range(12)] + ["For exports, the CSV writer should quote every field "
                                        "and use UTF-8 with a BOM so spreadsheets open it."])},
            {"speaker": "Jordan", "dia_id": "D1:02",
             "text": "I switched the database from SQLite to Postgres 15 yesterday."},
        ],
    },
    "qa": [
        {"question": "Which database does my budget tracker use now?", "answer": "Postgres 15",
         "evidence": ["D1:2"], "category": 4, "beam_type": "knowledge_update"},
        {"question": "How should the CSV export be encoded?", "answer": "UTF-8 with a BOM",
         "evidence": ["D1:01"], "category": 4, "beam_type": "information_extraction"},
        {"question": "What did I say about my cat?", "evidence": [], "category": 5,
         "beam_type": "abstention", "adversarial_answer": "nothing"},
    ],
}]


def test_lurker_eval_beam_prints_budgets_and_a_table_per_question_type(tmp_path):
    """The outsider's run: `lurker eval beam` as a subprocess on a BEAM-shaped chat whose evidence
    sits deep inside a long assistant turn."""
    data, out = tmp_path / "beam-tiny.json", tmp_path / "beam.json"
    data.write_text(json.dumps(BEAM_SAMPLE), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "memory.cli", "eval", "beam", "--data", str(data), "--k", "1,5",
         "--turns", "1,3", "--chars", "300,3000", "--e5", "off", "--out", str(out),
         "--embedding-cache", str(tmp_path / "vectors.sqlite3")],
        capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "LURKER_STORE": f"sqlite:///{tmp_path / 'beam.db'}"})
    assert done.returncode == 0, done.stderr
    assert "BEAM evidence recall at a budget of turns" in done.stdout
    assert "knowledge_update" in done.stdout and "information_extraction" in done.stdout
    assert "hybrid-raw" in done.stdout and "fused (cited)" in done.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["questions_by_type"] == {"abstention": 1, "information_extraction": 1,
                                           "knowledge_update": 1}
    records = {r["type"]: r for r in report["records"]}
    csv = records["information_extraction"]
    assert csv["evidence"] == ["D1:1"]  # "D1:01" normalised
    assert csv["recall"][FUSED]["T@1"] == 1.0  # the long turn's passage about CSV, first
    top = csv["retrieved"][0]  # a memory or a passage of the long turn: either carries it
    assert "BOM" in top["content"] and top["carried"] == ["D1:1"] and len(top["content"]) < 300
    # within 300 characters only a passage fits; the whole 2,000-character turn never does
    assert csv["recall"][FUSED]["C@300"] == 1.0 and csv["recall"][BM25_RAW]["C@300"] == 0.0
    # The long turn keeps 3 memories (offline_extractor.MAX_MEMORIES_PER_LONG_MESSAGE): its CSV
    # memory also wins the vector channel and, with the long turn's raw hits folded in, ranks
    # first for every question of this 3-turn chat; the Postgres turn comes third of three.
    assert records["knowledge_update"]["recall"][FUSED]["T@3"] == 1.0
    assert report["config"]["embedding_cache_misses"] > 0
    by_type = report["systems"][FUSED]["recall"]["T@3"]["by_type"]
    assert by_type["abstention"] is None and by_type["knowledge_update"] == 1.0


def test_captured_channel_hits_replay_the_fusion_of_the_run(tmp_path):
    """`--capture` keeps every question's channel hits; `python -m memory.eval.replay` fuses them
    again: at the defaults it gives the run's own fused figures, and a changed setting moves them
    (every weight 0: nothing is ranked)."""
    data, out, cap = tmp_path / "beam-tiny.json", tmp_path / "beam.json", tmp_path / "cap.jsonl"
    data.write_text(json.dumps(BEAM_SAMPLE), encoding="utf-8")
    env = {**__import__("os").environ, "LURKER_STORE": f"sqlite:///{tmp_path / 'beam.db'}"}
    done = subprocess.run(
        [sys.executable, "-m", "memory.cli", "eval", "beam", "--data", str(data), "--turns", "1,3",
         "--e5", "off", "--out", str(out), "--capture", str(cap)],
        capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    fused = json.loads(out.read_text(encoding="utf-8"))["systems"][FUSED]["recall"]
    first = json.loads(cap.read_text(encoding="utf-8").splitlines()[0])
    assert first["conversation"] == BEAM_SAMPLE[0]["sample_id"] and "D1:1" in sum(
        first["dia_ids_by_message"].values(), [])
    from memory.fusion import DEFAULT_WEIGHTS
    off = [a for channel in DEFAULT_WEIGHTS for a in ("--weight", f"{channel}=0")]
    replay = subprocess.run([sys.executable, "-m", "memory.eval.replay", str(cap), "--turns",
                             "1,3", *off], capture_output=True, text=True, timeout=120, env=env)
    assert replay.returncode == 0, replay.stderr
    lines = dict(line.split(maxsplit=1) for line in replay.stdout.splitlines()
                 if line.startswith("T@"))
    for budget in ("T@1", "T@3"):
        assert lines[budget] == f"{fused[budget]['overall']:.3f} -> 0.000"
    assert fused["T@3"]["overall"] > 0
    misspelt = subprocess.run([sys.executable, "-m", "memory.eval.replay", str(cap), "--weight",
                               "memory_txt=1"], capture_output=True, text=True, timeout=120, env=env)
    assert misspelt.returncode == 2 and "--weight wants CHANNEL=VALUE" in misspelt.stderr
