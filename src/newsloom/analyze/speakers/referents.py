"""Who a description or a document named as a speaker stands for, read from the article.

A definite description ("the coach", "the 56-year-old") refers back to the one person the
article described so: a noun in apposition with the name ("The coach of Ardwick United, Dan
Ferris,"), a title word before it ("Actors Mark Dalton and …"), a stated age. A definite
document ("the statement said", "according to the report") refers back to the same document
named earlier, whose issuer is its possessor, a from/by phrase, or the subject of the verb that
issued it ("Kessler Works issued a statement"). Nothing here is a list of names: only the
parse and the article's own mentions.
"""

from __future__ import annotations

from collections.abc import Iterable

from spacy.tokens import Doc, Token

from ..attribution import SPEECH_NOUNS, is_speech_verb, subject_of
from .candidates import ISSUER_PREPS

# Links from a name to a noun describing it: "Dan Ferris, the coach" (appos either way),
# "Coach Dan Ferris" (a title word before the name, a common noun or a capitalised title the
# parse takes for a proper noun: "Detective Inspector Ruth Okafor").
_DESCRIBING = frozenset({"appos", "compound"})
# Possessive pronouns before a description that refers back ("his father").
POSSESSIVE_PRONOUNS = frozenset({"his", "her", "their", "its"})


def is_definite(head: Token) -> bool:
    """Whether a noun phrase refers back ("the coach", not "a coach" or "his coach")."""
    return any(c.dep_ == "det" and c.lower_ == "the" for c in head.children)


def refers_back(head: Token) -> bool:
    """Whether a description refers back to someone the article described: definite ("the
    coach") or with a possessive pronoun ("his father", "her lawyer")."""
    for c in head.children:  # one pass over the children (each read builds a Token)
        dep = c.dep_
        if (dep == "det" and c.lower_ == "the") or (
            dep == "poss" and c.lower_ in POSSESSIVE_PRONOUNS
        ):
            return True
    return False


def description_index(doc: Doc, people: Iterable[tuple[int, int, str]]) -> dict[str, set[str]]:
    """Noun lemma -> the people (keys) the article describes with that noun: in apposition
    with their name either way, or as a title word before it. ``people`` are (first token,
    last token, key) of the person mentions; a name joined by "and" to a described one shares
    its description ("Actors Mark Dalton and David Ross")."""
    out: dict[str, set[str]] = {}
    by_root: dict[int, str] = {}
    for first, last, key in people:
        root = doc[first:last].root
        by_root[root.i] = key
        nouns = [c for c in root.children if c.dep_ in _DESCRIBING and c.pos_ == "NOUN"]
        nouns += _title_words(root, first)
        if root.dep_ == "appos" and root.head.pos_ == "NOUN":
            nouns.append(root.head)
        owner = _described_through_name(root)
        if owner is not None:
            nouns.append(owner)
        for noun in nouns:
            if noun.i < first or noun.i >= last or noun.dep_ == "appos":
                out.setdefault(noun.lemma_.lower(), set()).add(key)
    # Conjoined names share a description of the first.
    for i, key in by_root.items():
        token = doc[i]
        if token.dep_ == "conj" and token.head.i in by_root:
            first_key = by_root[token.head.i]
            for keys in out.values():
                if first_key in keys:
                    keys.add(key)
    return out


def _title_words(root: Token, first: int) -> list[Token]:
    """'Detective Inspector Ruth Okafor', 'Senator Paul Grimes': capitalised title words the
    parse tags as proper nouns before the name, read down their compound chain. A word the
    model tags as an entity of its own ("Ashby" in "Ashby councillor …") is a place or an
    organisation, not a title."""
    out: list[Token] = []
    todo = [c for c in root.children if c.dep_ == "compound" and c.i < first]
    while todo:
        word = todo.pop()
        if word.pos_ != "PROPN" or word.ent_type_:
            continue
        out.append(word)
        todo.extend(c for c in word.children if c.dep_ == "compound")
    return out


def _described_through_name(root: Token) -> Token | None:
    """'The coach of Ardwick United, Dan Ferris,': the parse hangs the name in apposition on
    the name the preposition governs, but a name needs no other name to describe it, so the
    apposition describes the noun the preposition belongs to."""
    if root.dep_ != "appos" or root.head.pos_ != "PROPN" or root.head.dep_ != "pobj":
        return None
    prep = root.head.head
    if prep.dep_ != "prep" or prep.head.pos_ != "NOUN" or prep.head.i > prep.i:
        return None
    return prep.head


# Verbs whose subject puts out the document that is their object.
ISSUING_VERBS = frozenset(
    {"release", "issue", "publish", "post", "air", "run", "unveil", "launch", "produce"}
    | {"send", "circulate", "distribute", "file", "share", "tweet", "broadcast"}
    | {"deliver", "give", "read", "write", "offer", "sign"}
)
# Verbs that put a document out with the particle "out" ("rolled out a message", "put out a
# statement").
ISSUING_WITH_OUT = frozenset({"roll", "put", "hand"})


def _is_issuing_verb(verb: Token) -> bool:
    """'released a statement', 'gave a speech', 'rolled out a message'."""
    lemma = verb.lemma_.lower()
    if lemma in ISSUING_VERBS:
        return True
    return lemma in ISSUING_WITH_OUT and any(
        c.dep_ == "prt" and c.lower_ == "out" for c in verb.children
    )


def document_issuer(head: Token, quoted: list[bool]) -> Token | None:
    """The issuer of a document: its possessor or from/by phrase ("the ministry's statement",
    "a statement from the ministry"), else, for a definite one ("the statement"), the issuer of
    the last earlier mention of the same document noun, read the same way or as the subject of
    the verb that has it as object ("Kessler Works issued a statement") or of the speech verb
    it is said in ("the ministry said in a statement"). An indefinite one is its issuer's when
    a verb of putting out has it as object ("Roe released a video that said …")."""
    lemma = head.lemma_.lower()
    if lemma not in SPEECH_NOUNS:
        return None
    own = _issuer_of(head, quoted, with_subject=False)
    if own is None and head.dep_ == "dobj" and _is_issuing_verb(head.head):
        # "Sanders is releasing a new ad that urges …": whoever releases it
        own = _issuer_of(head, quoted, with_subject=True)
    if own is not None or not is_definite(head):
        return own
    for token in reversed(head.doc[: head.i]):
        if token.lemma_.lower() == lemma and token.pos_ == "NOUN" and not quoted[token.i]:
            return _issuer_of(token, quoted, with_subject=True)
    return None


def _issuer_of(noun: Token, quoted: list[bool], with_subject: bool) -> Token | None:
    for child in noun.children:
        if child.dep_ == "poss" and not quoted[child.i]:
            if child.pos_ == "PRON":
                return _issuer_of_pronoun(child)
            return child
        if child.dep_ == "prep" and child.lower_ in ISSUER_PREPS:
            for obj in child.children:
                if obj.dep_ == "pobj" and obj.pos_ in ("PROPN", "NOUN") and not quoted[obj.i]:
                    return obj
        # "a speech Mrs. Clinton delivered", "the letter she wrote": the relative clause's
        # subject put it out (not "a statement that said …", whose subject is the document)
        if child.dep_ == "relcl" and _is_issuing_verb(child):
            for subject in child.children:
                if (
                    subject.dep_ == "nsubj"
                    and subject.tag_ not in ("WDT", "WP")
                    and not quoted[subject.i]
                ):
                    return subject
        # "an email sent out by Sanders", not "a letter seen by the Gazette"
        if child.dep_ == "acl" and child.tag_ == "VBN" and _is_issuing_verb(child):
            for agent in child.children:
                if agent.dep_ == "agent":
                    for obj in agent.children:
                        if obj.dep_ == "pobj" and obj.pos_ in ("PROPN", "NOUN"):
                            return obj if not quoted[obj.i] else None
    if not with_subject:
        return None
    verb = None
    if noun.dep_ == "dobj":  # "Kessler Works issued a statement"
        verb = noun.head
    elif noun.dep_ == "pobj" and noun.head.dep_ == "prep" and is_speech_verb(noun.head.head):
        verb = noun.head.head  # "the ministry said in a statement", "she wrote in a post"
    if verb is not None:
        for child in verb.children:
            if child.dep_ == "nsubj" and not quoted[child.i]:
                return child
        if verb.tag_ == "VBG":  # "Sanders showed no sign of it, releasing a statement that …"
            return subject_of(verb, quoted)
    return None


def _issuer_of_pronoun(pronoun: Token) -> Token | None:
    """'The Audit Office published its report': "its" is the subject of its own clause."""
    noun = pronoun.head
    verb = noun.head if noun.dep_ == "dobj" else None
    if verb is None:
        return None
    return next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "PROPN"), None)
