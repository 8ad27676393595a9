"""Speaker attribution by error class (issue 11, "Speakers you can trust").

One table per class of speaker error seen on other outlets' articles: the addressee taken
for the speaker, a description left as the speaker, pronouns and phrases that cannot speak,
statements and documents, continuation across paragraphs, nested attribution. Every article
is invented (names, places, outlets) and goes through the whole pipeline (``analyze_text``
with default settings). Each row names one quoted string and the speaker its quote must get:
a full name, or None when the speaker must stay unresolved (``speaker_text`` then keeps the
words the cue names).

The rows are written so that a general mechanism (the parse, number and gender agreement,
roles and ages from appositions) can solve them, not so that one rule happens to pass.
Names and places are ones the shipped spaCy model tags as people and places: an invented
name it takes for a place would test the entity recogniser, not the speaker.
Rows the current speaker rules get wrong are marked ``xfail(strict=True)``: when the speaker
model fixes one, it turns into an XPASS failure and its mark is removed.
"""

from __future__ import annotations

import pytest

from newsloom.analyze import analyze_text
from newsloom.config import Settings
from newsloom.models import QuoteMention

SKIP = object()  # "not checked" for speaker_text


def row(
    ident: str,
    text: str,
    quoted: str,
    speaker: str | None,
    kind: str | None = None,
    speaker_text: object = SKIP,
    fails: str | None = None,
):
    """One table row: the article, a quoted string in it, and the speaker its quote must get.

    ``kind`` is checked only when given; ``fails`` names the issue-11 class of a row the
    current rules get wrong (strict xfail).
    """
    marks = ()
    if fails:
        marks = (pytest.mark.xfail(strict=True, reason=f"issue 11: {fails}"),)
    return pytest.param(text, quoted, speaker, kind, speaker_text, id=ident, marks=marks)


def quote_of(text: str, quoted: str) -> QuoteMention:
    """The one direct quote of ``text`` whose words contain ``quoted``."""
    analysis = analyze_text(text)
    found = [q for q in analysis.quotes if q.kind == "direct" and quoted in q.text]
    assert len(found) == 1, f"{len(found)} direct quotes contain {quoted!r}"
    (quote,) = found
    if quote.speaker_start is not None:  # offsets are sacred
        assert text[quote.speaker_start : quote.speaker_end] == quote.speaker_text
    return quote


def bare(name: str | None) -> str | None:
    """A name without a leading article: "The Ministry of Health" is "Ministry of Health"."""
    if name is None:
        return None
    return name[4:] if name[:4].lower() == "the " else name


def check(quote: QuoteMention, speaker, kind, speaker_text) -> None:
    assert bare(quote.speaker) == speaker
    if kind is not None:
        assert quote.speaker_kind == kind
    if speaker_text is not SKIP:
        assert quote.speaker_text == speaker_text


# --- 1. addressee: the one told, asked or spoken to is never the speaker ------------------

ADDRESSEE_ROWS = [
    row(
        "told-named",
        "Helen Carter and Marta Kolb met at the town hall in Millford on Monday.\n\n"
        '"Sign it today," Carter told Kolb.',
        "Sign it today",
        "Helen Carter",
    ),
    row(
        "heard-telling",
        "A recording released on Friday captured the row at the depot.\n\n"
        'Tom Hadley can be heard telling Helen Carter: "You will regret this."',
        "You will regret this.",
        "Tom Hadley",
    ),
    row(
        "heard-telling-subject-lost",  # the parse hangs the teller from "the Ledger"
        "In a recording obtained by the Ledger, chief executive Simon Hart can be heard "
        'telling finance director Claire Dunn: "Just make the numbers work."',
        "Just make the numbers work.",
        "Simon Hart",
    ),
    row(
        "told-the-court",
        'Helen Carter told the court in Millford "I never saw the money."',
        "I never saw the money.",
        "Helen Carter",
    ),
    row(
        "told-an-outlet",
        'Helen Carter told The Millford Courier: "The depot stays open."',
        "The depot stays open.",
        "Helen Carter",
    ),
    row(
        "she-told-him",
        "Mayor Helen Carter met the union leader, Tom Hadley, on Monday.\n\n"
        '"We cannot pay more," she told him.',
        "We cannot pay more,",
        "Helen Carter",
    ),
    row(
        "he-asked-her",
        'Tom Hadley met Mayor Helen Carter on Monday.\n\n"Can you pay more?" he asked her.',
        "Can you pay more?",
        "Tom Hadley",
    ),
    row(
        "asked-by",
        'Asked by Helen Carter whether the depot would close, Tom Hadley said: "Not this year."',
        "Not this year.",
        "Tom Hadley",
    ),
    row(
        "passive-told-by",
        "Helen Carter left the court in Millford on Tuesday.\n\n"
        '"We will appeal," she was told by her lawyer, Piet Rademaker.',
        "We will appeal,",
        "Piet Rademaker",
    ),
    row(
        "responded-to",
        "Tom Hadley responded to Helen Carter on Tuesday by calling her plan "
        '"a fantasy from start to finish."',
        "a fantasy from start to finish.",
        "Tom Hadley",
    ),
    # The one asked answers: "she replied" right after a question put to someone.
    row(
        "the-one-asked-replies",
        "At the hearing, Senator Rob Kline questioned the chief executive, Maria Lopez, for "
        'two hours.\n\n"Did you know about the fraud?" Kline asked Lopez.\n\n'
        '"No, senator, I did not," she replied.',
        "I did not",
        "Maria Lopez",
        "person",
        "she",
    ),
    # The one spoken of in the passive ("was called", "was accused of") never speaks; a
    # "by …" names who did, and a gerund's doer is the passive subject ("was criticised for
    # calling them …").
    row(
        "called-by",
        'The council unveiled its housing plan on Monday. The plan was called "reckless" by '
        "Tom Hale, the opposition leader.",
        "reckless",
        "Tom Hale",
        "person",
    ),
    row(
        "criticised-for-calling",
        'The mayor was criticised for calling the protesters "thugs".',
        "thugs",
        "mayor",
        "person",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), ADDRESSEE_ROWS)
def test_addressee_is_never_the_speaker(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


# --- 2. description: a role, title or age names the person it describes ------------------

DESCRIPTION_ROWS = [
    # A description opening the article, with nobody named before it, is the one person the
    # article later describes so; with two who fit, nobody.
    row(
        "lead-description-named-later",
        'The health secretary has defended plans to close three hospitals, saying "hard '
        'choices" had to be made.\n\nHealth Secretary Wes Streeting told MPs the plans would '
        "save lives.",
        "hard choices",
        "Wes Streeting",
        "person",
        "The health secretary",
    ),
    row(
        "lead-description-two-fit",
        'The mayor said the bridge would "reopen soon", after weeks of repairs.\n\n'
        "Mayor Ann Kim and her deputy, former mayor Tom Roe, inspected it on Monday.",
        "reopen soon",
        None,
    ),
    # "who" after a description set off after a name is that person.
    row(
        "who-after-apposition",
        'The plan was backed by Tom Reyes, a former mayor who called it "the best deal in a '
        'generation."',
        "best deal",
        "Tom Reyes",
        "person",
        "who",
    ),
    # A nationality after "the" is one person (the paragraph's subject when the article gives
    # no one that nationality), even one with a role.
    row(
        "the-nationality",
        "United came from two goals down to draw 2-2 at Ashcombe.\n\n"
        "Manager Kofi Boateng praised his side's spirit. "
        '"At half-time I told them to keep going," the Ghanaian said.',
        "keep going",
        "Kofi Boateng",
        "person",
    ),
    # A nationality written the same in both numbers, which the tagger reads as plural:
    # the one person named before (here a possessor, not a subject); with several named
    # and none fitting, the nation's group as before.
    row(
        "the-one-form-nationality",
        "Felipe Duarte's side climbed to third with a 2-0 win over Leeds.\n\n"
        '"The boys were magnificent," the Portuguese said.',
        "magnificent",
        "Felipe Duarte",
        "person",
    ),
    row(
        "the-one-form-nationality-nobody-fits",
        "Ministers Mark Hollis and Sarah Dunne met their counterparts in Geneva on Monday.\n\n"
        '"We will not sign this text," the Portuguese said.',
        "We will not sign",
        "Portuguese",
    ),
    # A definite noun for a business is the organisation the report is about; a noun for
    # another kind of body ("the union") may be another body, commenting.
    row(
        "the-carmaker-is-the-firm",
        "Vantor Motors will cut 1,200 jobs in Europe, the carmaker announced on Tuesday. "
        '"These are painful decisions," the company said.',
        "painful decisions",
        "Vantor Motors",
        "organisation",
        "the company",
    ),
    row(
        "the-firm-is-the-one-named",
        "Two former employees are suing the tech firm Orbix for unfair dismissal.\n\n"
        'Orbix denied the claims. "These allegations are without merit," the firm said.',
        "without merit",
        "Orbix",
        "organisation",
    ),
    row(
        "the-union-is-not-the-firm",
        "Vantor Motors will cut 1,200 jobs in Europe. "
        '"Workers are paying for these mistakes," the union said.',
        "Workers are paying",
        "union",
    ),
    # A lower-case agent noun in -ist or -ian is a noun for a person.
    row(
        "the-entomologist",
        "Omar Farouk has studied bees for thirty years.\n\n"
        '"People think bees are simple," the entomologist says.',
        "bees are simple",
        "Omar Farouk",
        "person",
    ),
    # A role written in capitals ("the MP"), which the tagger reads as a proper noun.
    row(
        "the-mp",
        'Labour MP Jane Roe said the plan was flawed. "It will fail," the MP said.',
        "It will fail",
        "Jane Roe",
        "person",
    ),
    # An age no one was given, after a verb of manner the tagger reads as a noun ("the
    # 58-year-old fumed"): the paragraph's subject, not the other person named before.
    row(
        "age-of-the-paragraph-subject",
        "Manager Kofi Boateng praised his side's spirit.\n\n"
        "Ashcombe boss Phil Grey was furious with the referee. "
        '"That was never a penalty," the 58-year-old fumed.',
        "never a penalty",
        "Phil Grey",
        "person",
    ),
    # A relation of someone's ("her neighbour", "his 30-year-old son") is another person,
    # never the one named before (negative: the words stay).
    row(
        "possessive-relation-is-someone-else",
        "Ruth Kaplan, 44, said the council had failed her. Her neighbour described the "
        'landlord as "a bully who never fixes anything."',
        "a bully who never",
        "Her neighbour",
        "person",
        "Her neighbour",
    ),
    row(
        "possessive-aged-relation-is-someone-else",
        "Tom Berger runs the bakery on Mill Street.\n\n"
        '"We start at four every morning," his 30-year-old son said.',
        "We start at four",
        "his 30-year-old son",
        None,
        "his 30-year-old son",
    ),
    row(
        "role-prefix",
        "Oscar-winning actor Mark Dalton arrived in Cannes on Friday with his daughter, "
        "Nina.\n\n"
        '"I have never felt so nervous," the Oscar-winning actor said.',
        "I have never felt so nervous,",
        "Mark Dalton",
    ),
    row(
        "age",
        "Mark Dalton, 56, and his daughter, Nina Dalton, 24, arrived in Cannes on Friday.\n\n"
        '"I have never felt so nervous," the 56-year-old said.',
        "I have never felt so nervous,",
        "Mark Dalton",
    ),
    row(
        "former-minister",
        "Former minister Laura Bennett spoke at the rally in Port Carrow on Saturday, after the "
        "party leader, Martin Shaw.\n\n"
        '"The party has lost its way," the former minister said.',
        "The party has lost its way,",
        "Laura Bennett",
    ),
    row(
        "club-striker",
        "Ardwick United beat Lowther 3-1 on Saturday. The club's striker, Pavel Nemec, scored "
        "twice, and the coach, Dan Ferris, praised the defence.\n\n"
        '"I only had to finish," the striker said.',
        "I only had to finish,",
        "Pavel Nemec",
    ),
    row(
        "retired-nurse",
        "Greta Lindqvist, 71, a retired nurse from Millford, has campaigned for the clinic for a "
        "decade. The health minister, Peter Lang, visited it on Monday.\n\n"
        '"They promised us a doctor," the retired nurse said.',
        "They promised us a doctor,",
        "Greta Lindqvist",
    ),
    row(
        "spokeswoman-not-spokesman",
        "Spokesman Peter Lang and spokeswoman Dana Lisle both attended the hearing.\n\n"
        '"No comment," the spokeswoman said.',
        "No comment,",
        "Dana Lisle",
    ),
    row(
        "role-after-name",
        "The coach of Ardwick United, Dan Ferris, was sacked on Monday.\n\n"
        '"I saw it coming," the coach said.',
        "I saw it coming,",
        "Dan Ferris",
    ),
    row(
        "role-of-a-person",
        "The wife of Martin Shaw, Laura Bennett, opened the bridge on Tuesday.\n\n"
        '"It took eleven years," the wife said.',
        "It took eleven years,",
        "Laura Bennett",
    ),
    row(
        "her-lawyer",
        "Helen Carter hired a lawyer, Piet Rademaker, after the fire.\n\n"
        '"We will appeal," her lawyer said on Tuesday.',
        "We will appeal,",
        "Piet Rademaker",
    ),
    # Negatives: two people fit the description, or it names nobody of the article.
    row(
        "two-actors",
        "Actors Mark Dalton and David Ross arrived in Cannes on Friday.\n\n"
        '"I have never felt so nervous," the actor said.',
        "I have never felt so nervous,",
        None,
        kind="unknown",
        speaker_text="the actor",
    ),
    row(
        "age-of-the-one-person",  # an age nobody was given: the one person named before
        "Oscar-winning actor Daniel Brooks has spoken about his son's illness.\n\n"
        'In an interview, the 61-year-old said: "There were nights I lost hope."',
        "There were nights I lost hope.",
        "Daniel Brooks",
    ),
    row(
        "age-two-people",  # negative: two people named, neither given that age
        "Actors Daniel Brooks and Mark Dalton spoke about the film in Cannes.\n\n"
        'In an interview, the 61-year-old said: "There were nights I lost hope."',
        "There were nights I lost hope.",
        None,
    ),
    row(
        "two-of-that-age",
        "Mark Dalton, 56, and David Ross, 56, arrived in Cannes on Friday.\n\n"
        '"We go back a long way," the 56-year-old said.',
        "We go back a long way,",
        None,
        speaker_text="the 56-year-old",
    ),
    row(
        "role-for-organisation-named",  # the parse hangs the name on "the airline"
        "According to a spokesman for the airline, Tom Reyes, the flight "
        '"was diverted as a precaution".',
        "was diverted as a precaution",
        "Tom Reyes",
        kind="person",
    ),
    row(
        "capitalised-title",
        "Detective Inspector Ruth Okafor said officers had spoken to several witnesses.\n\n"
        '"This was a frightening night for the families," the detective added.',
        "This was a frightening night",
        "Ruth Okafor",
        kind="person",
    ),
    row(
        "age-without-noun",  # the parse hangs "the" and "old" from "said": no subject
        "Ray Tully, 52, coached the team for a decade.\n\n"
        '"The lads looked up to him," the 52-year-old said.',
        "The lads looked up to him,",
        "Ray Tully",
        kind="person",
    ),
    row(
        "nationality",  # someone described by nationality is a person, not a group
        "The coach spoke after the defeat in Millford.\n\n"
        'Asked about his future, the Swede replied: "Ask the board."',
        "Ask the board.",
        "Swede",
        kind="person",
    ),
    row(
        "indefinite",
        "Mayor Helen Carter opened the new depot in Millford on Monday.\n\n"
        '"Nobody asked us," a resident said.',
        "Nobody asked us,",
        None,
        speaker_text="a resident",
        fails="description",
    ),
    # "the Oscar winner, 49,": a noun for someone who won, given to no one, refers back to
    # the one person the article is about.
    row(
        "the-oscar-winner",
        "Kate Winslow has opened up about her early career.\n\n"
        'The Oscar winner, 49, told a podcast: "I was told I was too big for the part."\n\n'
        'Her co-star in the film, Liam Neave, said she had been "extraordinary".',
        "too big for the part",
        "Kate Winslow",
        "person",
    ),
    # "the mother-of-two": the whole hyphenated noun is the speaker's words.
    row(
        "the-mother-of-two",
        "A woman has told of her terror after a dog attacked her in a park.\n\n"
        "Kelly Simmons, 34, was walking in Heaton Park when the animal lunged at her.\n\n"
        '"I thought I was going to die," the mother-of-two said.',
        "going to die",
        "Kelly Simmons",
        "person",
        "the mother-of-two",
    ),
    # Sports pages: "the Frenchman" (the model calls it a name), "the Magpies boss", and "the
    # German" after "… was frustrated" (how someone felt; nothing was done to them).
    row(
        "the-28-year-old-frenchman",
        "Antoine Durand was named player of the tournament after France's win in Dublin.\n\n"
        '"The whole team deserves this," the 28-year-old Frenchman said.',
        "whole team deserves",
        "Antoine Durand",
        "person",
        "the 28-year-old Frenchman",
    ),
    row(
        "the-all-rounder",
        "England collapsed to 120 all out.\n\n"
        'Ben Stokes defended his batters. "We play a certain way," the all-rounder said.',
        "certain way",
        "Ben Stokes",
        "person",
    ),
    row(
        "the-englishman",
        "Ireland coach Andy Farrell said his side had been beaten by the better team. "
        '"We were second best," the Englishman admitted.',
        "second best",
        "Andy Farrell",
        "person",
    ),
    row(
        "the-club-boss",
        "Newcastle moved up to fourth with a 2-0 win over Brighton.\n\n"
        'Eddie Howe praised his players\' resilience. "We had to dig in," the Magpies boss '
        "said.",
        "dig in",
        "Eddie Howe",
        "person",
    ),
    row(
        "the-german-was-frustrated",
        "Newcastle moved up to fourth with a 2-0 win over Brighton.\n\n"
        'Eddie Howe praised his players\' resilience. "We had to dig in," the Magpies boss '
        "said.\n\n"
        'Brighton head coach Fabian Hurzeler was frustrated. "We gave away two soft goals," '
        "the German said.",
        "two soft goals",
        "Fabian Hurzeler",
        "person",
    ),
    # An age names no new role: it refers back to the one just named even as the subject of
    # a passive ("was named man of the match").
    row(
        "age-after-passive-subject",
        "Harbourside Rovers lost 3-1 at home. Rovers boss Denise Okafor said her side had "
        "been poor.\n\nStriker Luis Marquez, who scored twice, was "
        'named man of the match. "I just try to be in the right place," the 24-year-old said.',
        "right place",
        "Luis Marquez",
        "person",
    ),
    # Two roles stacked before one name, which the parse joins to the first by "and".
    row(
        "roles-stacked-before-a-name",
        "Organisers of the Greenhill Folk Festival have cancelled this year's event after a "
        "storm destroyed the main stage.\n\nFestival director and founder Alice Moreau said "
        'the decision was "heartbreaking". "We tried everything to save it," she said.',
        "heartbreaking",
        "Alice Moreau",
        "person",
    ),
    row(
        "co-founder-and-chief-executive",
        "Cellcycle, a startup that recovers lithium from used batteries, has raised $40 "
        'million.\n\n"Every battery we recycle is a mine we don\'t have to dig," co-founder '
        "and CEO Maya Okoye said in an interview.",
        "a mine we don't have to dig",
        "Maya Okoye",
        "person",
    ),
    # A headline's description is the lead's subject's, never the last paragraph's speaker.
    row(
        "headline-description-is-not-the-last-speaker",
        "Bank chief: 'Rates will stay high for longer'\n\nThe governor of the central bank has "
        "warned that interest rates will stay high for longer than markets expect.\n\n"
        'Speaking in Frankfurt, Governor Elsa Lindqvist said inflation was "proving stubborn".'
        '\n\nEconomists were split. "She\'s talking tough to keep markets in line," said Ravi '
        'Shah of Northbank. "I still expect a cut in spring."',
        "Rates will stay high",
        "Bank chief",
    ),
    # An indefinite description opening the lead, the person named later under its noun.
    row(
        "lead-indefinite-description-named-later",
        "Former aide says senator knew\n\nA former aide to Senator Ruth Palmer told "
        'investigators that "she knew about the payments for months".\n\nThe aide, Kevin '
        'Moss, said Palmer had asked him to keep quiet.\n\n"The senator never said any such '
        'thing," her spokesman, Eli Grant, said.',
        "knew about the payments",
        "Kevin Moss",
        "person",
    ),
    # A headline's capitalised role (read as a proper noun, even a body) is the lead's person.
    row(
        "headline-capitalised-role",
        "Coach says players 'gave everything'\n\nNorthbridge coach Terry Walsh resigned on "
        "Sunday, a day after a 40-6 defeat.",
        "gave everything",
        "Terry Walsh",
        "person",
    ),
    # ... also as the subject of the headline's first predicate, shared by "says".
    row(
        "headline-second-predicate",
        'Coach quits after defeat, says players "gave everything"\n\nNorthbridge coach '
        "Terry Walsh resigned on Sunday, a day after a 40-6 defeat.",
        "gave everything",
        "Terry Walsh",
        "person",
    ),
    # A description the article brought in unnamed ("A spokesman for …") is that one, not
    # the person named as a subject in the paragraph before.
    row(
        "description-brought-in-unnamed",
        "A light aircraft came down on the M6 on Saturday.\n\nThe pilot, named locally as "
        "Greg Munro, 45, declined to comment.\n\nA spokesman for Cumbria Police said nobody "
        'on the ground had been hurt. "It is nothing short of a miracle," the spokesman said.',
        "short of a miracle",
        "spokesman",
    ),
    # A role word before a name at the start of a sentence is no part of the name.
    row(
        "role-word-opening-the-sentence",
        "The ferry made its last crossing on Sunday.\n\nIslander Morag Bell, 88, remembered "
        'the first one in 1974. "We all came down in our Sunday best," she said.',
        "Sunday best",
        "Morag Bell",
        "person",
    ),
    row(
        "musician-role-before-the-name",
        "Opera star cancels tour\n\nSoprano Elena Vasquez has cancelled her European tour "
        "to recover from surgery.\n\nVasquez, 41, posted a video thanking fans for their "
        'messages. "I will be back, stronger," she said in the video.',
        "back, stronger",
        "Elena Vasquez",
        "person",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), DESCRIPTION_ROWS)
def test_description_names_the_person_it_describes(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


# --- 3. pronoun / non-people: a pronoun resolves by agreement; things never speak --------

PRONOUN_ROWS = [
    # "they" for a body named by a singular noun ("Ridley's campaign … what they call"),
    # when no plural noun is there for it.
    row(
        "they-for-a-campaign",
        "Campaign defends rally remarks\n\nSenator Paul Ridley spoke for forty minutes in "
        "Westbury on Saturday.\n\nRidley's campaign is trying to contrast his record with "
        'what they call his rival\'s "empty promises."',
        "empty promises",
        "Ridley's campaign",
    ),
    row(
        "they-for-plural-officials-before-a-body",
        "Harbour dues rise\n\nPort officials said the council had ignored their warnings."
        '\n\nPort officials said the council had waited too long. "We told them in June," '
        "they said.",
        "told them in June",
        "Port officials",
    ),
    # A paragraph that is a quotation and its "she said" goes on from the paragraph before:
    # its one person, unnamed ("A witness"), speaks.
    row(
        "she-after-an-unnamed-witness",
        "A witness, who gave her name only as Maria, said she heard three shots.\n\n"
        '"I threw myself on the floor," she said.',
        "threw myself",
        "A witness",
        "person",
        "she",
    ),
    # A "she" taken as someone's shows her gender to the pronouns after it: "He" is then the
    # brother, not the previous speaker.
    row(
        "gender-shown-by-a-resolved-she",
        "Sarah Lin and her brother Tom opened the cafe in 2015.\n\n"
        '"We had no idea what we were doing," she said.\n\n'
        'He added: "We still don\'t."',
        "still don't",
        "Tom",
        "person",
    ),
    # "they" after two people named together as a subject is the two of them.
    row(
        "they-the-two-named",
        "Residents Jo Hart and Sam Patel have lived opposite the site for a decade. "
        '"The noise starts at six," Hart said, while Patel added: "Nobody asked us."\n\n'
        '"We will fight this," they said in a joint letter.',
        "fight this",
        "Jo Hart and Sam Patel",
        "group",
        "they",
    ),
    # "Reyes's answer was short. "…," he said.": the sentence before is about its subject's
    # owner (not so for a person of his: "Reyes's lawyer spoke").
    row(
        "owner-of-the-subject-before",
        'Councillor Rita Vance did not hold back. Her verdict: "This budget is a disgrace."'
        '\n\nCouncil leader Tom Reyes\'s answer was short. "We disagree," he said.',
        "We disagree",
        "Tom Reyes",
        "person",
    ),
    row(
        "she-one-woman",
        "Laura Bennett opened the new bridge in Port Carrow on Tuesday.\n\n"
        '"It took eleven years," she said.',
        "It took eleven years,",
        "Laura Bennett",
    ),
    row(
        "he-by-mr",
        "Laura Bennett and Martin Shaw opened the bridge on Tuesday. Ms. Bennett cut the "
        "ribbon while Mr. Shaw watched.\n\n"
        '"It took eleven years," he said.',
        "It took eleven years,",
        "Martin Shaw",
    ),
    row(
        "he-by-earlier-she",
        "Dana Lisle met Robin Ames in Millford on Monday. Lisle said she had waited a year for "
        "the meeting.\n\n"
        '"Nothing was agreed," he said.',
        "Nothing was agreed,",
        "Robin Ames",
    ),
    row(
        "she-by-earlier-he",
        "Robin Ames met Dana Lisle in Millford on Monday. Ames said he had waited a year for "
        "the meeting.\n\n"
        '"Nothing was agreed," she said.',
        "Nothing was agreed,",
        "Dana Lisle",
    ),
    row(
        "she-said-she",
        "Dana Lisle met Robin Ames in Millford on Monday. Lisle said she had waited a year for "
        "the meeting.\n\n"
        '"Nothing was agreed," she said.',
        "Nothing was agreed,",
        "Dana Lisle",
    ),
    row(
        "possessor-of-subject",
        "Martin Shaw met the council on Monday.\n\n"
        "Laura Bennett's advice earned her a seat at the hearing, where she was praised for "
        'saying the bridge was "the best money ever spent."',
        "the best money ever spent.",
        "Laura Bennett",
    ),
    row(
        "she-skips-a-man-in-between",
        "Laura Bennett, the mayor, met Martin Shaw on Monday. He offered the town a loan.\n\n"
        '"We will not take it," she said.',
        "We will not take it,",
        "Laura Bennett",
    ),
    row(
        "he-skips-a-woman-in-between",
        "Martin Shaw, the treasurer, met Mayor Laura Bennett on Monday. She offered him a seat "
        "on the board.\n\n"
        '"I said no," he said.',
        "I said no,",
        "Martin Shaw",
    ),
    row(
        "it-an-organisation",
        "The Millford Farmers Union wrote to Mayor Laura Bennett on Monday.\n\n"
        '"We will not be ignored," it said.',
        "We will not be ignored,",
        "Millford Farmers Union",
        kind="organisation",
    ),
    row(
        "after-her-coat",
        'Laura Bennett arrived late, rain dripping from her coat. "Sorry, the trains," she said.',
        "Sorry, the trains,",
        "Laura Bennett",
    ),
    row(
        "the-next-few-weeks",
        'The next few weeks, Martin Shaw said, "will decide the season."',
        "will decide the season.",
        "Martin Shaw",
    ),
    row(
        "a-silence-fell",
        '"This cannot go on," Laura Bennett said, as a silence fell over the hall.',
        "This cannot go on,",
        "Laura Bennett",
    ),
    # Negatives: no antecedent that agrees, or only things that cannot speak.
    row(
        "she-no-woman",
        "Martin Shaw closed the factory in Millford on Friday. Mr. Shaw said it had lost money "
        "for years.\n\n"
        '"We will not leave," she said.',
        "We will not leave,",
        None,
        speaker_text="she",
    ),
    row(
        "gender-from-apposition",  # "her husband, Luis": he is no "she"
        "Maria Santos and her husband, Luis, run the bakery on Church Street.\n\n"
        '"And the accounts," Luis adds.\n\n'
        '"Our gas bill has tripled," she says.',
        "Our gas bill has tripled,",
        "Maria Santos",
    ),
    row(
        "he-unnamed-spokesman",
        'Detective Inspector Nora Quill said: "The shop staff were very brave."\n\n'
        "A spokesman for Ellby Police added that a second man was being sought. "
        '"We urge anyone with information to come forward," he said.',
        "We urge anyone",
        "A spokesman for Ellby Police",
        "person",
    ),
    row(
        "he-the-patient",
        "Doctors at St Anne's Hospital carried out the region's first robotic heart "
        "operation.\n\nThe patient is recovering well. "
        '"I feel like a new man," he said.',
        "new man",
        "patient",
        "person",
    ),
    # Negative: a definite noun naming no one ("The Ohio senator") may describe someone
    # named before in other words: the one named before speaks.
    row(
        "he-the-main-clause-subject",
        "Former candidate Carl Brandt, who endorsed Ruth Moss on Tuesday, agreed with her.\n\n"
        "The Ohio senator declined to say whether it was right for a sitting judge to criticize "
        'a candidate. But he said "the record is quite clear."',
        "the record is quite clear",
        "Carl Brandt",
        "person",
    ),
    row(
        "he-not-a-spokeswoman",
        'Detective Inspector Tom Quill said: "The shop staff were very brave."\n\n'
        "A spokeswoman for Ellby Police added that a second man was being sought. "
        '"We urge anyone with information to come forward," he said.',
        "We urge anyone",
        "Tom Quill",
    ),
    row(
        "she-no-person",
        "The factory in Millford closed on Friday after 90 years.\n\n"
        '"We will not leave," she said.',
        "We will not leave,",
        None,
        speaker_text="she",
    ),
    row(
        "it-a-hall",
        'The old hall in Port Carrow was full on Monday night.\n\n"We are finished here," it said.',
        "We are finished here,",
        None,
        speaker_text="it",
    ),
    # "they" with no plural subject in its paragraph: the people the paragraph before has
    # speak ("his family", one noun for several people).
    # "they" for one person, when the article says that person uses it.
    row(
        "they-them-pronouns",
        "Alex Rivera, who uses they/them pronouns, won the city's poetry prize on Friday.\n\n"
        '"I wrote this book for my younger self," they said after the ceremony.',
        "my younger self",
        "Alex Rivera",
        "person",
        "they",
    ),
    row(
        "they-the-family-before",
        "Tributes have been paid to a teenager who died after being hit by a car.\n\n"
        "Ryan Holt, 17, was a keen footballer and a talented artist, his family said.\n\n"
        '"He lit up every room he walked into," they said in a statement.',
        "lit up every room",
        "his family",
        "group",
        "they",
    ),
    # A paragraph that opens with a person's name is about them, even when the parse finds
    # no subject there ("Farouk shrugs" read as one noun).
    row(
        "paragraph-opens-with-the-name",
        "Nadia Farouk has published nine books.\n\nHer editor, Paul Greer, calls her "
        '"the most disciplined writer I know". "She hands in clean copy," Greer says.\n\n'
        'Farouk shrugs at the praise. "Discipline is just habit with a better name," she says.',
        "just habit",
        "Nadia Farouk",
        "person",
    ),
    # ... but not when the name opening it owns the subject ("Farouk's editor").
    row(
        "paragraph-opens-with-an-owner",
        'Nadia Farouk writes at dawn. "Before anyone wakes," she said.\n\n'
        'Farouk\'s editor, Paul Greer, is a night owl. "I read her pages at midnight," he said.',
        "midnight",
        "Paul Greer",
        "person",
    ),
    # A full name the model tags an organisation, with its surname a person's alone later.
    row(
        "name-tagged-a-body-with-a-surname-later",
        "Interview: the novelist who writes at dawn\n\nNadia Farouk has published nine novels "
        "in twelve years. Her latest, The Salt Road, is out this week.\n\n"
        '"I write from five until eight, before the house wakes up," she says.\n\n'
        'Her editor, Paul Greer, says she is disciplined. "She hands in clean copy," Greer says.'
        '\n\n"I am just stubborn," Farouk says with a laugh.',
        "five until eight",
        "Nadia Farouk",
        "person",
    ),
    # A name the model tags a work of art, shown to be a person's because it speaks.
    row(
        "name-tagged-a-work-that-speaks",
        "The Hallcroft Philharmonic has a new music director.\n\n"
        '"We play the same forty pieces every year," Yuki Tanabe told the board at her first '
        "meeting.\n\nAs the orchestra's chair, Graham Lowe, put it: \"She was not hired to be "
        'cautious."\n\nTanabe recalled her own first concert as a child. "My grandmother took '
        'me," she said.',
        "grandmother took me",
        "Yuki Tanabe",
        "person",
    ),
    # "Holt said he respected her decision": the her is someone else's, so Holt is a he.
    row(
        "his-he-then-someone-elses-her",
        "The chief constable, Karen Doyle, has resigned.\n\nThe Police and Crime "
        'Commissioner, James Holt, said he respected her decision. "She has served this '
        'county for thirty years," he said.',
        "served this county",
        "James Holt",
        "person",
    ),
    # A name the model tags a place, in apposition to a word for a person ("deputy"): the
    # she after it is hers, not an earlier paragraph's speaker's.
    row(
        "name-tagged-a-place-after-a-person-noun",
        'Residents spent the night upstairs. "We have never seen water this high," said Carla '
        "Menzies, who runs a bakery.\n\nMayor Tobias Renn said 140 homes were evacuated.\n\n"
        'His deputy, Ines Clavel, was less certain. "We will look at every decision we made '
        'this week," she said.',
        "every decision",
        "Ines Clavel",
        "person",
    ),
    # A surname the model tags a nationality, after the full name: the same person.
    row(
        "surname-tagged-a-nationality",
        "Speaking on a podcast, actor Dev Sharma said he almost gave up acting.\n\n"
        '"I sat in my flat for three months," he told host Claire Boyd.\n\nBoyd asked what '
        "changed. \"A director I'd never met sent me a script with a note saying, 'You were "
        "the only good thing in that film,'\" Sharma said.",
        "sent me a script",
        "Dev Sharma",
        "person",
    ),
    # A first name alone the model tags a body, after the full name: the same person.
    row(
        "first-name-tagged-a-body",
        "A 12-year-old from Leicester has become the youngest grandmaster in British chess "
        "history.\n\nAarav Mehta secured the title after a draw in Budapest on Sunday.\n\n"
        "\"I'm very happy, but I'm also very tired,\" Aarav said.",
        "very tired",
        "Aarav Mehta",
        "person",
    ),
    # A he after a definite noun the article brought in unnamed ("a father and his son" …
    # "The father, who asked not to be named, thanked …") is that one, not the last speaker.
    row(
        "he-after-a-noun-brought-in-unnamed",
        "Two walkers were rescued early on Sunday.\n\nThe pair, a father and his son from "
        "Glasgow, called for help after 9pm. Team leader Hamish Grant said they had done the "
        'right thing.\n\n"They stayed put," Grant said.\n\nThe father, who asked not to be '
        'named, thanked the volunteers. "We were very lucky," he said.',
        "very lucky",
        "father",
    ),
    # "the company" for a business the model missed in the article ("Velora Motors").
    row(
        "the-company-after-a-missed-business-name",
        "Carmaker cuts 2,000 jobs as sales slide\n\nVelora Motors will cut 2,000 jobs across "
        'Europe, the company said on Thursday. "These are painful decisions," the company '
        "said in a statement.",
        "painful decisions",
        "Velora Motors",
        "organisation",
    ),
    # "it" standing for a body described by a noun that names it ("The airline"): the body.
    row(
        "it-after-a-body-described",
        "More than 60 flights were cancelled on Sunday, according to a statement from SkyCoast "
        'Airways.\n\nThe airline said passengers would be rebooked or refunded. "We are '
        'sorry," it said.',
        "We are sorry",
        "SkyCoast Airways",
        "organisation",
        "it",
    ),
    # The one who reports outranks the subject of what they report, also when the parse
    # lost that subject ("told the court Forde had poured": Forde hung on "court").
    row(
        "reporter-over-a-subject-the-parse-lost",
        "Prosecuting, Helen Achterberg told the court Forde had poured petrol through the "
        'letterbox. "The family escaped with minutes to spare," she said.',
        "minutes to spare",
        "Helen Achterberg",
        "person",
        "she",
    ),
    # ... and for "it": a body reporting over the body it reports on, named or not.
    row(
        "it-the-reporting-body",
        "Firm fined\n\nThe watchdog said the firm had broken the rules. "
        '"It will be fined," it said.',
        "will be fined",
        "watchdog",
        None,
        "it",
    ),
    row(
        "it-the-reporting-body-over-a-named-one",
        "Firm fined\n\nThe watchdog said on Monday that Delmar Energy had broken the rules. "
        '"The company will be fined," it said.',
        "will be fined",
        "watchdog",
        None,
        "it",
    ),
    # Negative: the body named as the subject of its own sentence keeps "it".
    row(
        "it-the-body-that-answers",
        "Firm fined\n\nRegulators said on Monday that Delmar Energy had broken the rules."
        '\n\nDelmar Energy denied it. "We followed every rule," it said.',
        "every rule",
        "Delmar Energy",
        "organisation",
        "it",
    ),
    # A body named as the subject of the pronoun's paragraph since the last quotation's
    # speaker (a paragraph before) is what "it" stands for.
    row(
        "it-the-body-named-since-the-last-speaker",
        "Supermarket posts record profit\n\nThe GMB said it would ballot members over pay. "
        '"Record profits, poverty pay," the union said in a statement.\n\nFreshWay said it '
        'had raised pay twice this year. It added that it "values every colleague".',
        "values every colleague",
        "FreshWay",
        "organisation",
        "It",
    ),
    # "it" never stands for a plural: the memo speaks again, not the officials it reports.
    row(
        "it-never-a-plural",
        "Minister under fire\n\nThe memo, dated March 2, says officials had warned that the "
        'cladding was "a serious risk to life". It adds: "Urgent action is recommended."',
        "Urgent action",
        "memo",
        None,
        "It",
    ),
    # An honour or a peerage before a name shows a gender as Mr and Mrs do: "Lady Joanna
    # Hart" is a woman, whatever "his resignation" after her suggests.
    row(
        "she-after-a-lady",
        "Charity boss quits\n\nMartin Greaves, 61, denied any wrongdoing.\n\nThe "
        "charity's chair, Lady Joanna Hart, said the board had accepted his resignation. "
        '"Our work with rough sleepers continues," she said.',
        "rough sleepers",
        "Joanna Hart",
        "person",
        "she",
    ),
    # A full name the model tags a body, that a "who" clause with a singular verb goes on
    # about, is a person's; "Pembroke … He" then resolves.
    row(
        "full-name-with-who-tagged-a-body",
        "Tributes have been paid to Arthur Pembroke, who served three terms as mayor of "
        "Hallam, who has died aged 88.\n\nPembroke, a former miner, was first elected in "
        '1979. He once told the Hallam Echo: "I am a miner who happens to be mayor."',
        "happens to be mayor",
        "Arthur Pembroke",
        "person",
        "He",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), PRONOUN_ROWS)
def test_pronoun_resolves_and_things_never_speak(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


# --- 4. statement: the issuer speaks, or the document itself when none is named ----------

STATEMENT_ROWS = [
    # A quotation that is the content of someone's claim, promise or speech: theirs, unless
    # a speech verb reports the claim (then the reporter speaks), and not when the quotation
    # only qualifies the thing said.
    row(
        "content-of-a-claim-with-an-owner",
        "Critics seize on minister's figures\n\nThe opposition seized on Transport Minister "
        "Hannah Cole's claim that the new line would be \"finished ahead of time and under "
        'budget."\n\nMs Cole did not respond to questions on Monday.',
        "ahead of time",
        "Hannah Cole",
        "person",
    ),
    row(
        "a-claim-reported-by-a-speech-verb",
        "Rail row deepens\n\nTransport Minister Hannah Cole opened the line on Monday.\n\n"
        "Councillor Ruth Abara said Cole's claim that the line would be \"finished ahead of "
        'time" had been wrong from the start.',
        "ahead of time",
        "Ruth Abara",
        "person",
    ),
    row(
        "a-quotation-qualifying-remarks-is-the-callers",
        "Rail row deepens\n\nTransport Minister Hannah Cole defended the budget on Monday."
        '\n\nCouncillor Ruth Abara called Cole\'s remarks "deeply misleading" and asked '
        "for an inquiry.",
        "deeply misleading",
        "Ruth Abara",
        "person",
    ),
    row(
        "according-to-a-speech-someone-delivered",
        'Minister sets out rail plan\n\nThe line must "serve the towns first, and the '
        'cities after," according to a speech Transport Minister Hannah Cole delivered in '
        "Leeds in March.",
        "serve the towns first",
        "Hannah Cole",
        "person",
    ),
    # A speech verb in a relative clause before the quotation ("the failings she cited are
    # '…'") describes a noun; the report right after the quotation says it.
    row(
        "a-report-after-a-quotation-the-parse-hung-on-a-relative-clause",
        "Hospital trust under fire\n\nCouncillor Dana Whitlock questioned the trust's "
        "managers at the health committee on Wednesday.\n\nThe five \u201cfailings\u201d "
        "she cited are \u201cthe chance to move patients between wards without notes, to "
        "discharge people late at night, to leave scans unread for weeks and to cancel "
        "clinics when staff fall ill,\u201d the Courier reported.",
        "scans unread",
        "Courier",
        None,
        "the Courier",
        # (the rules pick the Courier, test_rules_take_the_report_after_a_relative_clause;
        # the ranker still prefers the relative clause's subject, which its training calls
        # the inner speaker of a nested report almost everywhere else)
        fails="statement",
    ),
    # A document someone puts out ("rolled out a message", "gave a statement") is theirs.
    row(
        "rolled-out-a-message",
        "Worried about turnout among young voters, Senator Ada Moss is rolling out a new and "
        'more personal campaign message: "It\'s about you."',
        "about you",
        "Ada Moss",
        "person",
    ),
    row(
        "gave-a-statement",
        "Outside the court, Tom Reyes gave a short statement to reporters: "
        '"I have done nothing wrong."',
        "nothing wrong",
        "Tom Reyes",
        "person",
    ),
    row(
        "person-statement",
        'Laura Bennett said in a statement: "I have done nothing wrong."',
        "I have done nothing wrong.",
        "Laura Bennett",
    ),
    row(
        "organisation-statement",
        'Kessler Works said in a statement on Friday: "No jobs will be lost."',
        "No jobs will be lost.",
        "Kessler Works",
        kind="organisation",
    ),
    row(
        "ministry-statement",
        "The Ministry of Health said in a statement that the clinic in Millford would "
        '"reopen in the spring."',
        "reopen in the spring.",
        "Ministry of Health",
        kind="organisation",
    ),
    row(
        "the-statement-said",
        "Kessler Works issued a statement on Friday after the fire at its plant.\n\n"
        '"No jobs will be lost," the statement said.',
        "No jobs will be lost,",
        "Kessler Works",
        kind="organisation",
    ),
    # A named person's statement or response is hers: the possessor speaks.
    row(
        "named-possessor-statement",
        "Governor Helen Marsh issued a statement on Monday. "
        'Marsh\'s statement said: "We will rebuild."',
        "We will rebuild",
        "Helen Marsh",
        "person",
    ),
    row(
        "named-possessor-response-was",
        "Aide Maria Lopez told Governor Helen Marsh about the flood. "
        'Marsh\'s response was: "Is the bridge still open?"',
        "bridge still open",
        "Helen Marsh",
        "person",
    ),
    # "Her verdict: '…'", "Roe's advice to voters: '…'": the owner's words.
    row(
        "owner-before-colon",
        'Councillor Rita Vance did not hold back. Her verdict: "This budget is a disgrace."',
        "budget is a disgrace",
        "Rita Vance",
        "person",
    ),
    row(
        "its-findings-before-colon",
        "The Carrow Board of Elections met on Monday to hear the challenge. The board was "
        'conclusive in its findings: "Further discussion of this issue is unnecessary."',
        "Further discussion",
        "Carrow Board of Elections",
        "organisation",
        "The board",
    ),
    row(
        "owner-of-phrase-before-colon",
        'Tom Reyes met the press on Friday. Reyes\'s advice to voters: "Read the small print."',
        "small print",
        "Tom Reyes",
        "person",
    ),
    # "the authority" after "the Carrow Harbour Authority": the body named before.
    row(
        "the-body-by-its-name",
        "In a statement issued on Tuesday, the Carrow Harbour Authority said the pier would "
        'reopen in May.\n\n"Safety is our first concern," the authority said.',
        "Safety is our first",
        "Carrow Harbour Authority",
        "organisation",
    ),
    # An ad or video put out by someone, that says something: whoever put it out.
    row(
        "released-ad-that-urges",
        "Candidate Maria Lopez is releasing a new 30-second ad that urges voters in Carrow to "
        '"send a message" to the developers.',
        "send a message",
        "Maria Lopez",
        "person",
    ),
    row(
        "released-video-that-said",
        "In selling the courses, Tom Reyes released a marketing video that said, "
        '"We are going to have the best teachers in the country."',
        "best teachers",
        "Tom Reyes",
        "person",
    ),
    # "a fundraising email sent out by X", "a letter signed by 40 doctors": X, the doctors.
    row(
        "document-sent-by",
        "In addition, a fundraising email sent out by Maria Lopez on Tuesday night warned of "
        'the fight ahead: "There are 14 votes over the next three weeks."',
        "14 votes",
        "Maria Lopez",
        "person",
    ),
    row(
        "document-signed-by-a-group",
        'A letter signed by 40 doctors said the plan was "reckless and dangerous."',
        "reckless and dangerous",
        "40 doctors",
        "group",
    ),
    # A statement put out in a participle clause, its "that" interrupted by an aside.
    row(
        "statement-released-in-a-participle",
        "But Maria Lopez showed no sign of backing down, releasing a statement that, while "
        'condemning violence, accused the party leadership of using "its power to block a fair '
        'process."',
        "its power to block",
        "Maria Lopez",
        "person",
    ),
    row(
        "editorial-run-by-a-paper",
        'The Carrow Gazette ran an editorial that accused the mayor of "living in a fantasy '
        'world."',
        "fantasy world",
        "Carrow Gazette",
        "organisation",
    ),
    row(
        "possessor-statement",  # an unnamed issuer still issues: the company speaks
        'The company\'s statement added: "We will cooperate fully with the investigation."',
        "We will cooperate fully",
        "company",
        kind="group",
    ),
    row(
        "the-statement-said-in",  # "said in a statement" names the statement's issuer
        "The Ministry of Transport said in a statement on Thursday that the line would open "
        'in spring.\n\n"Testing is going well," the statement read.',
        "Testing is going well,",
        "Ministry of Transport",
        kind="organisation",
    ),
    row(
        "tweet",
        'In a tweet on Monday, Laura Bennett wrote: "See you all in Port Carrow!"',
        "See you all in Port Carrow!",
        "Laura Bennett",
    ),
    row(
        "emails-released-by",
        "Emails released by the Millford council show that Martin Shaw called the deal "
        '"a done thing" in March.',
        "a done thing",
        "Martin Shaw",
    ),
    row(
        "report-with-issuer",
        "The Port Carrow Audit Office published its report on the bridge on Monday.\n\n"
        'According to the report, the bridge was "unsafe from the first day."',
        "unsafe from the first day.",
        "Port Carrow Audit Office",
        kind="organisation",
    ),
    row(
        "report-no-issuer",
        'According to the report, the bridge was "unsafe from the first day."',
        "unsafe from the first day.",
        None,
        kind="document",
    ),
    row(
        "the-report-said",
        "The bridge in Port Carrow was closed in 2019.\n\n"
        '"The bridge was unsafe from the first day," the report said.',
        "The bridge was unsafe from the first day,",
        None,
        kind="document",
    ),
    # A subject of names joined by "and" speaks for them all, as one group; not so a list
    # before a relative clause ("…, Patti Lane and Stevie Hart, who joked": the last one).
    row(
        "joint-speakers",
        "A couple who won a lottery prize have given most of it away.\n\n"
        'Jo Hart and Sam Patel said: "We have been lucky all our lives."',
        "lucky all our lives",
        "Jo Hart and Sam Patel",
        "group",
        "Jo Hart and Sam Patel",
    ),
    # A body's name set off after the noun for it issues its statement.
    row(
        "body-named-in-apposition",
        "Bus drivers in Marlow returned to work on Friday.\n\nThe bus company, Marlow Transit, "
        "said in a statement that services would be back to normal by Monday.\n\n"
        '"We thank passengers for their patience," the statement said.',
        "their patience",
        "Marlow Transit",
    ),
    # "His final words were simple: '…'": the words are their owner's.
    row(
        "owner-of-words-described-before-a-colon",
        "Radio presenter Bill Hartnell signed off for the last time on Friday after four "
        'decades on air.\n\nHis final words to listeners were simple: "Thank you for letting '
        'me into your kitchens."',
        "your kitchens",
        "Bill Hartnell",
        "person",
    ),
    # The one a document was seen by did not issue it: "The letter, seen by the Gazette, said"
    # is the letter's writer's.
    row(
        "document-seen-by-a-paper",
        "Claire Hadley said in a letter to staff that she was sorry. The letter, seen by the "
        'Gazette, said: "I have let you down."',
        "let you down",
        "Claire Hadley",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), STATEMENT_ROWS)
def test_statement_belongs_to_its_issuer(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


def test_rules_take_the_report_after_a_relative_clause(nlp):
    """The rules alone give the Courier the words its relative-clause row quotes (the ranker
    still overrides them): neither a reported clause of "she cited" nor a quotation of hers."""
    text = (
        "Hospital trust under fire\n\nCouncillor Dana Whitlock questioned the trust's managers "
        "at the health committee on Wednesday.\n\nThe five \u201cfailings\u201d she cited "
        "are \u201cthe chance to move patients between wards without notes, to discharge "
        "people late at night, to leave scans unread for weeks and to cancel clinics when "
        "staff fall ill,\u201d the Courier reported."
    )
    quotes = analyze_text(text, Settings(speakers="rules")).quotes
    assert [bare(q.speaker) for q in quotes if "scans unread" in q.text] == ["Courier"]


@pytest.mark.parametrize(
    ("text", "speaker", "speaker_text"),
    [
        # The colon closes a relative clause whose speech verb has a subject of its own: the
        # quotation is that subject's, told inside the main clause's description.
        pytest.param(
            "Memoir row\n\nFormer director Rachel Adeyemi has written a memoir.\n\nIn the "
            "book, Adeyemi describes a meeting at which the chief executive told staff: "
            '"Nobody leaks, or nobody stays."',
            "chief executive",
            "the chief executive",
            id="relative-clause-at-the-colon",
        ),
        # ... and a description whose word before the noun is not in the role of the one
        # named before stays unresolved ("the prime minister" is no "cabinet minister").
        pytest.param(
            "Ex-minister's memoir attacks former boss\n\nFormer cabinet minister Rachel Adeyemi "
            'has accused the prime minister of running a government "paralysed by fear".\n\n'
            "In the book, Adeyemi describes a cabinet meeting at which the prime minister "
            'allegedly told ministers: "Nobody leaks, or nobody stays."',
            None,
            "the prime minister",
            id="description-qualified-unlike-the-role",
        ),
        # Negative: a relative clause whose subject is "who" is no one's own cue.
        pytest.param(
            "Memoir row\n\nFormer director Rachel Adeyemi has written a memoir.\n\nAdeyemi "
            'told reporters who had asked about the book: "Nobody leaks, or nobody stays."',
            "Rachel Adeyemi",
            "Adeyemi",
            id="relative-clause-of-who-at-the-colon",
        ),
    ],
)
def test_rules_take_the_speaker_of_a_relative_clause_at_the_colon(nlp, text, speaker, speaker_text):
    """The rules alone (the ranker, trained before, may still prefer the main clause's
    subject)."""
    quotes = analyze_text(text, Settings(speakers="rules")).quotes
    (quote,) = [q for q in quotes if q.kind == "direct" and "Nobody leaks" in q.text]
    assert (bare(quote.speaker), quote.speaker_text) == (speaker, speaker_text)


# --- 5. continuation: a quote-only paragraph, and long interviews -----------------------

INTERVIEW = (
    "Laura Bennett, 64, has run the Port Carrow ferry for thirty years. Her son, Tom Bennett, "
    "joined her last spring.\n\n"
    '"I started at sixteen," Laura Bennett said.\n\n'
    '"My father ran it before me, and his father before him."\n\n'
    '"The tourists only came in the nineties."\n\n'
    '"I only joined last year," Tom Bennett said.\n\n'
    '"Mum still does the hard part."\n\n'
    "Laura Bennett laughed at that.\n\n"
    '"He is being kind. He does the mornings."'
)
MONOLOGUE = (
    "Laura Bennett, 64, has run the Port Carrow ferry for thirty years. The council voted to "
    "close it on Monday.\n\n"
    '"I started at sixteen," she said.\n\n'
    '"My father ran it before me."\n\n'
    '"The tourists came later."\n\n'
    '"Then the bridge was built."\n\n'
    '"Now they want to close it."'
)

CONTINUATION_ROWS = [
    row(
        "same-paragraph-second-quote",
        '"We agreed on nothing," Laura Bennett said after meeting Martin Shaw. '
        '"The bridge will have to wait."',
        "The bridge will have to wait.",
        "Laura Bennett",
    ),
    row(
        "after-own-cue",
        "Laura Bennett met Martin Shaw in Port Carrow on Monday. "
        '"We agreed on nothing," she said.\n\n'
        '"The bridge will have to wait another year."',
        "The bridge will have to wait another year.",
        "Laura Bennett",
    ),
    row(
        "last-speaker-of-two",
        '"We agreed on nothing," Laura Bennett said after meeting Martin Shaw. Shaw said he was '
        '"deeply disappointed."\n\n'
        '"The bridge will have to wait another year."',
        "The bridge will have to wait another year.",
        "Martin Shaw",
    ),
    # A speech verb right after a quotation that reports a clause of its own is someone
    # else's report: the quotation continues the speaker before it.
    row(
        "continued-before-a-new-report",
        "Manager Rob Kerr praised his striker, Leo Banda, after the win.\n\n"
        '"He was outstanding," Kerr said. "He deserves the headlines." Banda said he was '
        '"just happy to help".',
        "He deserves the headlines.",
        "Rob Kerr",
    ),
    # A closing mark glued to the speaker's name ('bad,”Clinton said'), as copy pasted
    # without its space has it: the mark and the name are read apart.
    row(
        "glued-closing-mark",
        "The host asked about the rally.\n\n"
        "“I think it was a mistake,”Clara Webb said. “Some of the things he said were cruel.”",
        "Some of the things",
        "Clara Webb",
    ),
    row(
        "monologue-second",
        MONOLOGUE,
        "My father ran it before me.",
        "Laura Bennett",
    ),
    row(
        "monologue-fifth",
        MONOLOGUE,
        "Now they want to close it.",
        "Laura Bennett",
    ),
    row(
        "interview-carry-first-speaker",
        INTERVIEW,
        "The tourists only came in the nineties.",
        "Laura Bennett",
    ),
    row(
        "interview-carry-second-speaker",
        INTERVIEW,
        "Mum still does the hard part.",
        "Tom Bennett",
    ),
    row(
        "interview-back-to-first",
        INTERVIEW,
        "He is being kind.",
        "Laura Bennett",
    ),
    row(
        "cue-closes-previous-paragraph",
        "Laura Bennett met Martin Shaw in Port Carrow on Monday. Afterwards Shaw said:\n\n"
        '"We agreed on nothing."',
        "We agreed on nothing.",
        "Martin Shaw",
    ),
    # A quotation that is a sentence of its own after a sentence about one person.
    row(
        "own-sentence-named",
        "Sarah Whitfield lost her kitchen in the flood. The council promised help.\n\n"
        'Mrs Whitfield is not convinced. "They said that last time too."',
        "They said that last time too.",
        "Sarah Whitfield",
    ),
    row(
        "own-sentence-pronoun",
        "Jordan Ellis, 38, is standing for mayor in Millford.\n\n"
        'On housing, she is blunt. "We need to build, and we need to build now."',
        "We need to build",
        "Jordan Ellis",
    ),
    row(
        "apposition-chain-subject",  # the rival is named in apposition to the subject
        'Jordan Ellis said: "The pool was the heart of this town."\n\n'
        "Her rival, the sitting mayor Frank Oduya, disagrees. "
        '"Ms Ellis has no plan," he said.\n\n'
        '"We have balanced the books."',
        "We have balanced the books.",
        "Frank Oduya",
    ),
    # Negatives: two people named and neither speaks before the quote-only paragraph: the
    # quotation is kept, with no speaker.
    row(
        "two-people-met",
        "Laura Bennett and Martin Shaw met in Port Carrow on Monday to discuss the bridge.\n\n"
        '"We agreed on nothing."',
        "We agreed on nothing.",
        None,
        kind="unknown",
        speaker_text=None,
    ),
    row(
        "two-people-ran",
        "The ferry was run by Laura Bennett and Martin Shaw until 2019.\n\n"
        '"It was the best job in the world."',
        "It was the best job in the world.",
        None,
        kind="unknown",
        speaker_text=None,
    ),
    # A quotation left open at its paragraph's end runs on into the next (the convention for
    # a long one): its first part is speech, of the one the paragraph names.
    row(
        "open-quote-runs-on",
        "The inquiry heard from the former head of the water company on Tuesday.\n\n"
        'Richard Bloom said the board had been warned in 2019. "We knew the pipes were '
        "failing. We asked for money to replace them.\n\n"
        '"The money never came. I regret that every day," he told the panel.',
        "pipes were failing",
        "Richard Bloom",
        "person",
    ),
    # A he/she opening the sentence after one that names a single person, with nobody
    # speaking in the paragraph yet, is that person, not the last speaker.
    row(
        "the-one-named-in-the-sentence-before",
        'Tom Ashdown has farmed barley here for forty years. "I have never seen the ground '
        'this hard," he said.\n\nAshdown is fatalistic.\n\n"This year the weather won."\n\n'
        'Both farmers have written to their MP, Graham Feld. He said he was "pressing '
        'ministers daily".',
        "pressing ministers daily",
        "Graham Feld",
        "person",
    ),
    # ... but the speaker goes on when the sentence before names the speaker's subject.
    row(
        "the-speaker-named-before-goes-on",
        'Tom Ashdown has farmed barley here for forty years. "I have never seen the ground '
        'this hard," he said.\n\nAshdown wrote to his MP, Graham Feld. He said he was still '
        '"waiting for a reply".',
        "waiting for a reply",
        "Tom Ashdown",
        "person",
    ),
    # Words quoted inside someone's report leave the reporter speaking: the next he/she is
    # the reporter's, not the one whose words were quoted.
    row(
        "quoted-inside-a-report",
        "Union leader Maria Lopez said the company's director, Alex Kim, had described the "
        'workers as "replaceable".\n\n"That word will not be forgotten," she said.',
        "will not be forgotten",
        "Maria Lopez",
        "person",
    ),
    # ... also a person brought in by someone's account ("According to Quinn, her manager …").
    row(
        "person-in-someones-account",
        "Sarah Quinn said she reported problems at least six times. According to Quinn, her "
        'line manager told her the repairs were "too expensive".\n\n"He actually said to me, '
        "'Nobody has died yet,'\" she said.",
        "He actually said",
        "Sarah Quinn",
        "person",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), CONTINUATION_ROWS)
def test_continuation_carries_the_right_speaker(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        pytest.param(
            "Laura Bennett and Martin Shaw met in Port Carrow on Monday.\n\n"
            '"We agreed on nothing."\n\n"Nothing at all."',
            ["We agreed on nothing.", "Nothing at all."],
            id="quote-only-paragraphs",
        ),
        # Negatives: a phrase in quotation marks inside a sentence nobody speaks stays out,
        # and so does a sentence in quotation marks after a sentence naming two people.
        pytest.param(
            "Laura Bennett and Martin Shaw met in Port Carrow on Monday.\n\n"
            'The so-called "bridge to nowhere" was not discussed.',
            [],
            id="scare-quote",
        ),
        pytest.param(
            "The bridge opened in March.\n\n"
            'Laura Bennett and Martin Shaw disagree. "It should never have been built."',
            [],
            id="own-sentence-two-people",
        ),
        # ... nor after a "for" that frames no person's view.
        pytest.param(
            "Estate changes\n\nThe bridge opened in March.\n\nFor years, the town waited. "
            '"It should never have been built."',
            [],
            id="own-sentence-after-for-years",
        ),
        pytest.param(
            "Estate changes\n\nSergeant Tom Ilves has patrolled the estate for ten years.\n\n"
            'For the council, the change is obvious. "People talk to us now."',
            [],
            id="own-sentence-after-for-a-body",
        ),
        # What someone was accused of, by no one named, is no one's words.
        pytest.param(
            'Ministers have been accused of "betraying" farmers over the new trade deal.',
            [],
            id="accused-of",
        ),
        # A nickname in quotation marks inside a person's name is nobody's words.
        pytest.param(
            'Rep. Robert C. "Bobby" Scott said on Monday that he would not run.',
            [],
            id="nickname-in-a-name",
        ),
        # A clause about something that cannot speak, ending in the colon, names no speaker.
        pytest.param(
            "The bridge opened in March.\n\n"
            'The sign at the entrance was blunt: "No lorries after dark."',
            [],
            id="colon-after-a-thing",
        ),
    ],
)
def test_a_quotation_nobody_is_said_to_speak(nlp, text, kept):
    """A paragraph that is only a quotation is kept with no speaker and no confidence in
    anyone; a quoted phrase inside someone else's sentence is no quotation."""
    quotes = [q for q in analyze_text(text).quotes if q.kind == "direct"]
    assert [q.text for q in quotes] == kept
    for q in quotes:
        assert q.speaker is None and q.speaker_text is None and q.speaker_entity_id is None
        assert q.speaker_kind == "unknown"
        assert q.speaker_confidence == 0.0


# --- 6. nested: "Roe said Doe told her ..." -- the quote is Doe's -----------------------

NESTED_ROWS = [
    row(
        "said-told-her",
        'Laura Bennett said Martin Shaw told her "the money is gone."',
        "the money is gone.",
        "Martin Shaw",
    ),
    row(
        "said-had-called",
        'Laura Bennett said Martin Shaw had called the plan "a fantasy."',
        "a fantasy.",
        "Martin Shaw",
    ),
    row(
        "according-to-told",
        'According to Laura Bennett, Martin Shaw told the board: "We are bankrupt."',
        "We are bankrupt.",
        "Martin Shaw",
    ),
    row(
        "outlet-reported-described",
        "The Millford Courier reported that Laura Bennett had described the deal as "
        '"a betrayal of the town."',
        "a betrayal of the town.",
        "Laura Bennett",
    ),
    row(
        "lawyer-advised",
        'Martin Shaw said his lawyer, Dana Lisle, had advised him: "Say nothing."',
        "Say nothing.",
        "Dana Lisle",
    ),
    row(
        "told-reporters-promised",
        'Laura Bennett told reporters that Martin Shaw had promised her "a seat at the table."',
        "a seat at the table.",
        "Martin Shaw",
    ),
    row(
        "heard-call",
        'Martin Shaw said he had heard Laura Bennett call the plan "a fantasy."',
        "a fantasy.",
        "Laura Bennett",
    ),
    row(
        "recalled-saying",
        'Laura Bennett recalled Martin Shaw saying, "We will never sell."',
        "We will never sell.",
        "Martin Shaw",
    ),
    row(
        "father-used-to-say",
        "Martin Shaw, whose father, Jan Shaw, founded the farm, recalled that his father used "
        'to say: "Never sell the land."',
        "Never sell the land.",
        "Jan Shaw",
        # (the rules pick Jan Shaw, test_rules_take_the_inner_speaker; the rankers of rounds
        # 12-14 and 16 prefer the outer reporter, named in full at the line's start; round
        # 15's got it right)
        fails="nested",
    ),
    # The inner subject cannot speak: the quoted words are the reporter's.
    row(
        "inner-cannot-speak",
        "The new museum opened in Millford on Friday.\n\n"
        'Mayor Laura Bennett said it would tell an old story, one of "hope and loss, fear and '
        'courage."',
        "hope and loss",
        "Laura Bennett",
    ),
    # Quoted adverbs say how the inner verb acted: the reporter's characterisation.
    row(
        "quoted-manner-of-inner-verb",
        "Martin Shaw ran an advertisement showing police officers.\n\n"
        'City lawyer Laura Bennett said in a letter that the advertisement "wrongly and '
        'plainly" suggests that the police back his campaign.',
        "wrongly and",
        "Laura Bennett",
    ),
    # Negative: an organisation named by a common noun speaks for itself.
    row(
        "inner-company",
        'Laura Bennett said the company had described the deal as "a betrayal of the town."',
        "a betrayal",
        "company",
    ),
    # Negative: an inner speaker who can speak keeps the quote, adverbs or not.
    row(
        "inner-speaker-adverbs",
        'Laura Bennett said Martin Shaw had "gladly and loudly" agreed, and that he called the '
        'plan "a fantasy."',
        "a fantasy.",
        "Martin Shaw",
    ),
    # Negative: the outer speaker's own words about someone else.
    row(
        "outer-own-words",
        'Laura Bennett said Martin Shaw was wrong and that his plan was "a fantasy."',
        "a fantasy.",
        "Laura Bennett",
    ),
    # "quoted her as saying": the one quoted speaks, not the paper quoting her.
    row(
        "quoted-her-as-saying",
        "Transport Minister Elena Castell backs a cut in fuel tax.\n\nThe Daily Courier quoted "
        'her as saying: "Families cannot keep paying these prices."',
        "Families cannot",
        "Elena Castell",
        "person",
        # (the rules pick Elena Castell, test_rules_take_the_inner_speaker; round 16's ranker
        # preferred the paper, as PolNeAR's annotators mostly name it; rounds 12-15's and
        # 17's do not)
    ),
]


@pytest.mark.parametrize(
    ("text", "quoted", "speaker"),
    [
        (
            "Martin Shaw, whose father, Jan Shaw, founded the farm, recalled that his father "
            'used to say: "Never sell the land."',
            "Never sell the land.",
            "Jan Shaw",
        ),
        (
            "Transport Minister Elena Castell backs a cut in fuel tax.\n\nThe Daily Courier "
            'quoted her as saying: "Families cannot keep paying these prices."',
            "Families cannot",
            "Elena Castell",
        ),
    ],
)
def test_rules_take_the_inner_speaker(nlp, text, quoted, speaker):
    """The rules alone give the nested rows' quotations to the inner speaker (the shipped
    ranker overrides them: those rows are strict xfails)."""
    quotes = analyze_text(text, Settings(speakers="rules")).quotes
    assert [bare(q.speaker) for q in quotes if quoted in q.text] == [speaker]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), NESTED_ROWS)
def test_nested_quote_belongs_to_the_inner_speaker(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)


# --- 7. house styles and layouts of other outlets ---------------------------------------

# One sentence the parse reads two ways, alone and after a lead paragraph.
SENTENCING = (
    'Sentencing Paul Dench, 52, Judge Helen Marsh said he had "betrayed the trust of the public".'
)

LAYOUT_ROWS = [
    # A headline quoting someone after a colon, with no full stop inside the marks: read as a
    # quotation (not a title: a title capitalises its words), its speaker the one the body
    # names with that role.
    row(
        "headline-role-colon-quotation",
        'Mayor: "We will not back down"\n\nMayor Owen Tarrant vowed on Thursday to keep the '
        'library open.\n\n"Libraries are not a luxury," Tarrant said.',
        "not back down",
        "Owen Tarrant",
        "person",
    ),
    # "'…,' read a banner": the parse takes the quotation for the verb's subject and the
    # banner for its object; the banner says it, nobody named (not the last speaker).
    row(
        "read-a-banner-after-the-quotation",
        "Library protest draws hundreds\n\nMayor Owen Tarrant spoke to the crowd on Saturday. "
        '"We will win this," he said.\n\n"Hands off our library," read a banner held by one '
        "protester.",
        "Hands off",
        None,
        None,
        "a banner",
    ),
    # A house style that quotes with single marks: every quotation is read, not just titles.
    row(
        "single-marks",
        "Kofi Mensah scored twice for United on Saturday.\n\n"
        "Manager Siobhan Kerr praised her side. 'We never stopped believing,' she said. "
        "'The lads showed real character.'",
        "The lads showed",
        "Siobhan Kerr",
        "person",
    ),
    # ... and a paragraph of such an article that quotes with double marks beside a single-
    # quoted title keeps its quotation.
    row(
        "single-marks-beside-double",
        "Manager Siobhan Kerr praised her side. 'We never stopped believing,' she said. "
        "'The lads showed real character.'\n\n"
        "Striker Kofi Mensah, asked about the film 'Road to Glory', said: \"I have not seen it "
        'yet."\n\n'
        "'It was a great night,' Mensah added.",
        "not seen it yet",
        "Kofi Mensah",
    ),
    # A question-and-answer piece: each quoted answer is the interviewee's.
    row(
        "interview-answers",
        "Lena Marsh took over as music director of the Riverton Symphony in September. She "
        "spoke to us about her first season.\n\n"
        "You have programmed three premieres. Is that a risk?\n\n"
        '"Of course it is a risk. An orchestra that only plays the past becomes a museum."\n\n'
        "How have the musicians reacted?\n\n"
        '"They have been wonderful."',
        "They have been wonderful",
        "Lena Marsh",
        "person",
    ),
    # ... also when the introduction names the interviewee through their work.
    row(
        "interview-answers-after-a-work",
        "Q&A: the novelist of the year\n\nHannah Morley's debut novel, The Salt House, has won "
        "the Marlow Prize. We spoke to her at her home in Bristol.\n\nWhere did the idea come "
        'from?\n\n"My grandmother\'s village. She told me stories about the salt pans."',
        "grandmother's village",
        "Hannah Morley",
        "person",
    ),
    # Negative: a question that quotes someone is not an interviewer's.
    row(
        "quoted-question",
        'Viktor Hale asked the board: "Who will pay for this?"\n\n'
        "Nobody answered him at the meeting on Monday.",
        "Who will pay",
        "Viktor Hale",
    ),
    # A live blog's entry: a name and an adverb before the colon.
    row(
        "name-adverb-colon",
        "22:40 Labour's Priya Desai holds the seat in Northfield.\n\n"
        '23:50 Desai again: "Tonight is not about me. It is about this town."',
        "Tonight is not about me",
        "Priya Desai",
        "person",
        "Desai",
    ),
    # The parse reads the name as a preposition's object and leaves "said" without a subject.
    row(
        "name-before-subjectless-verb",
        "More than 40,000 homes were without power on Sunday.\n\n"
        '"This is the worst damage in a decade," said Owen Trask, head of field operations.\n\n'
        "In the village of Elm Cross, pensioner Doris Whitlow, 81, said she had spent the "
        'night by candlelight. "I have got a gas stove, so I can make tea," she said.',
        "gas stove",
        "Doris Whitlow",
        "person",
    ),
    # The one who reports outranks the subject of what they report.
    row(
        "reporter-over-reported",
        "Gareth Lyle, 58, admitted fraud at an earlier hearing.\n\n"
        "Prosecutor Nadia Rahman told the court Lyle had used the money to pay debts. "
        '"This was a betrayal of everyone who gave to the charity," she said.',
        "betrayal",
        "Nadia Rahman",
    ),
    # Negative: a participle's subject is its clause's, never the name before its comma.
    row(
        "participle-after-place",
        "Hillary Clinton chimed in on Twitter, saying that officials should release the "
        'videos "without delay."',
        "without delay",
        "Hillary Clinton",
    ),
    # A surname that is also a plural noun, tagged as the noun.
    row(
        "surname-tagged-noun",
        "Opposition spokesman Derek Mills accused the minister of fiddling the figures.\n\n"
        'Mills replied that families "deserve better than promises".',
        "deserve better",
        "Derek Mills",
        "person",
    ),
    # A role noun the article gave nobody: the one person its paragraph is about.
    row(
        "role-given-to-nobody",
        "Kofi Mensah's late header gave United a 2-1 win over Riverside.\n\n"
        "Mensah, 24, celebrated with team-mates at the final whistle. "
        '"I just closed my eyes and jumped," the striker said.',
        "closed my eyes",
        "Kofi Mensah",
        "person",
    ),
    # Negative: one something was done to is not the one a new role names.
    row(
        "role-after-passive",
        "Police were called to Mill Lane on Monday night.\n\n"
        'John Smith, 34, was arrested at the scene. "We caught him with the laptop in his '
        'hands," the officer said.',
        "We caught him",
        "officer",
        speaker_text="the officer",
    ),
    # Negative: the paragraph's subject is described by another role, so "the striker" is not
    # that person: the words stay, naming nobody.
    row(
        "role-of-someone-else",
        "United beat Riverside 2-1 on Saturday.\n\n"
        "Manager Siobhan Kerr watched from the touchline. "
        '"I just closed my eyes and jumped," the striker said.',
        "closed my eyes",
        "striker",
        speaker_text="the striker",
    ),
    # A clause about a person that ends in the colon opening the quotation introduces them.
    row(
        "clause-before-colon",
        "Independent candidate Joy Mensah accused the mayor, Frank Dalton, of ignoring the "
        'suburbs. "Look at the cranes on the skyline," Dalton said.\n\n'
        'Mensah shot back: "Cranes do not pay the rent."',
        "Cranes do not",
        "Joy Mensah",
    ),
    # A hyphenated role the parse split into three subjects: the name in apposition speaks.
    row(
        "hyphenated-role",
        "Glaciers in the southern range have lost a third of their ice, a study found.\n\n"
        'His co-author, Professor Mei Lin, said the findings should "ring alarm bells" for '
        "the towns.",
        "ring alarm bells",
        "Mei Lin",
        "person",
        "His co-author",
    ),
    # The parse made the subject the sentence's root and its verb a participle clause: the
    # name is still the subject a "he" after it refers to, not the one quoted before.
    row(
        "root-noun-with-clause",
        '"It looks like a way around the limits," said Dana Pruitt, a former counsel.\n\n'
        "Her Republican challenger, state Rep. Carl Fenwick, seized on the reports. "
        '"Voters deserve the truth," he said in a video posted to social media.',
        "Voters deserve",
        "Carl Fenwick",
    ),
    # A paragraph that introduces someone new: the he/she opening the next one is them, not
    # the one who spoke before (both men: gender cannot tell them apart).
    row(
        "newcomer-after-speaker",
        "Shop owner Raj Malhotra says trade has fallen since the lane opened. "
        '"My customers cannot stop outside any more," he said.\n\n'
        "Across the road, Tom Brooks, a nurse who cycles to work, sees it differently.\n\n"
        '"For the first time I feel safe on this road," he said.',
        "feel safe",
        "Tom Brooks",
    ),
    # '"…," he said' right after a sentence naming one man shows his gender, so a later "she"
    # is not him.
    row(
        "gender-from-next-sentence",
        "Shop owner Raj Malhotra says trade has fallen since the lane opened. "
        '"My customers cannot stop outside any more," he said.\n\n'
        "Helen Brooks and Raj Malhotra met at the council on Monday.\n\n"
        '"For the first time I feel safe on this road," she said.',
        "feel safe",
        "Helen Brooks",
    ),
    # Right after the quotation, a present-tense speech verb the tagger read as a plural
    # noun ("Hollis jokes"), and a verb of manner ("she shrugs"), are the cue.
    row(
        "verb-read-as-noun",
        "Margaret Hollis and Colin Frayne run the village shop.\n\n"
        '"Best money I ever spent," Frayne says.\n\n'
        '"Some days we sell more gossip than groceries," Hollis jokes.',
        "more gossip",
        "Margaret Hollis",
    ),
    row(
        "manner-verb",
        "Tom Ashdown won the award. Jane Moss, his neighbour, runs the shop with him.\n\n"
        '"I thought they had made a mistake," Tom said.\n\n'
        '"He works every night," Moss laughs. "Of course he won."',
        "works every night",
        "Jane Moss",
    ),
    # A description in the headline refers ahead, to the person the article names.
    row(
        "headline-description",
        "'We will rebuild': mayor vows after fire\n\n"
        "The market hall in Kelton burned down overnight.\n\n"
        'Mayor Rosa Fielding said: "This hall has stood for 150 years."',
        "We will rebuild",
        "Rosa Fielding",
    ),
    # A role noun after a paragraph that is a quotation alone refers to the subject of the
    # paragraph before it.
    row(
        "role-after-quote-paragraph",
        "Ellis Moore has signed a new contract with Castlefield.\n\n"
        'Manager Pablo Ruiz was pleased. "Ellis is the future of this club," Ruiz said.\n\n'
        "Moore, 23, scored 19 goals last season.\n\n"
        '"The fans have been amazing to me," the forward added.',
        "amazing to me",
        "Ellis Moore",
    ),
    # A possessive after an object pronoun is that other person's: "thanked him for his
    # service" shows nothing of the subject's gender.
    row(
        "possessive-after-object",
        "Housing minister Gareth Pym resigned on Monday.\n\n"
        "Prime Minister Helen Strand thanked him for his service. "
        '"Gareth has been a loyal colleague," she said.',
        "loyal colleague",
        "Helen Strand",
    ),
    # "they" after "the couple": the pair, an unnamed group; and a couple named with one
    # surname are two people.
    row(
        "couple-they",
        "Arthur and Edna Bell, both 92, married in 1956.\n\n"
        'The couple have four children. "We are very lucky," they said.',
        "very lucky",
        "couple",
        "group",
    ),
    # "One of the rescued men, who did not want to be named, said": one of people speaks,
    # and the relative clause is no part of the phrase.
    row(
        "one-of-people",
        "Three fishermen were rescued off Kestle Point on Friday night.\n\n"
        'One of the rescued men, who did not want to be named, said: "We owe them everything."',
        "owe them everything",
        "One of the rescued men",
        "person",
        "One of the rescued men",
    ),
    row(
        "one-noun",
        "The bakery chain Crumbs has collapsed into administration.\n\n"
        '"Nobody from head office has told us anything," said one baker, who has worked for '
        "the firm for 11 years.",
        "told us anything",
        "one baker",
        "person",
    ),
    # A transcript's turn, unquoted, is its label's, matched to the person named before
    # ("RILEY" is Tom Riley).
    row(
        "transcript-turn",
        "Health minister Grace Obi was questioned on Morning Report. Presenter Tom Riley asked "
        "her about the figures.\n\n"
        "RILEY: Minister, the waiting list has doubled. Is that not a failure?\n\n"
        "OBI: The list grew during the pandemic. It is now falling.",
        "waiting list has doubled",
        "Tom Riley",
        "person",
        "RILEY",
    ),
    # An interview laid out as "Q: … ¶ A: …": the answers are the interviewee's.
    row(
        "interview-q-a",
        "Lena Marsh took over as head librarian in September. She spoke to us about her plans."
        "\n\nQ: What surprised you most?\n\n"
        "A: How many people come in just to be somewhere warm.\n\n"
        "Q: Will you keep the Sunday opening?\n\n"
        "A: Yes. It is our busiest day for families.",
        "busiest day",
        "Lena Marsh",
    ),
    row(
        "couple-named-once",
        "Arthur and Edna Bell, both 92, married in 1956.\n\n"
        "Asked for the secret of a long marriage, Edna did not hesitate. "
        '"Never go to bed angry," she said.\n\n'
        'Arthur has a different view. "Let her have the last word," he said.',
        "Never go to bed",
        "Edna Bell",
    ),
    # A broadcast exchange: the colon's clause names the asker even when the tagger reads
    # the surname as a common noun, and a sentence about someone else between two quotations
    # gives the second to them.
    row(
        "colon-clause-beats-manner-after",
        "On Sunday, host Clara Nunes pressed the minister on waiting lists.\n\n"
        '"Will you resign if the target is missed?" Nunes asked.\n\n'
        '"No," said Health Minister Grant Obi. "The target will be met."\n\n'
        'Nunes pressed again: "And if it is not?" Obi smiled. "It will be."',
        "And if it is not",
        "Clara Nunes",
        "person",
    ),
    row(
        "sentence-between-quotations",
        "On Sunday, host Clara Nunes pressed the minister on waiting lists.\n\n"
        '"No," said Health Minister Grant Obi. "The target will be met."\n\n'
        '"And if it is not?" Nunes asked. Obi smiled. "It will be."',
        "It will be",
        "Grant Obi",
        "person",
    ),
    # "One of them, Peter Holm, 78, puts it simply: '…'": the name set off after the subject.
    row(
        "named-after-one-of-them",
        "I met Ruth Adeyemi in the kitchen of the shelter she has run since 2009.\n\n"
        "Her volunteers, most of them retired, arrive at seven. One of them, Peter Holm, 78, "
        'puts it simply: "She saved my life."',
        "saved my life",
        "Peter Holm",
        "person",
    ),
    # A fact-check's layout: a paragraph that is only a quotation, signed on the next line.
    row(
        "signed-below",
        "The candidates met for their second debate on Tuesday. Here is what we checked.\n\n"
        '"Rents in this city have doubled in five years."\n\n- Maria Lopez.\n\n'
        "Rents rose by 41 percent over the period, according to the housing agency.",
        "doubled in five",
        "Maria Lopez",
        "person",
    ),
    row(
        "signed-below-with-occasion",
        "The candidates met for their second debate on Tuesday.\n\n"
        '"I have never taken a penny from developers."\n\n'
        "- Councillor Owen Brandt, in his closing statement.\n\n"
        "Brandt's campaign accepted donations from two building firms last year.",
        "never taken a penny",
        "Owen Brandt",
        "person",
    ),
    # ... but a bulleted list after a quotation signs nothing (negative).
    row(
        "bullet-below-is-no-signature",
        "Mayor Dana Whitfield unveiled her budget on Monday. "
        '"This is a budget for families," she said.\n\n'
        '"We will not raise the tax."\n\n- Cut fees for swimming pools.\n\n'
        "- Fix potholes on Elm Street.",
        "not raise the tax",
        "Dana Whitfield",
    ),
    # Speech verbs with a particle ("chimed in", "pointed out") and ones the lists lacked.
    row(
        "chimed-in",
        '"We never thought the river would reach the houses," said Marta Quist, 67. '
        'Her neighbour, Johan Berg, chimed in: "Nobody on this street did."',
        "Nobody on this street",
        "Johan Berg",
        "person",
    ),
    row(
        "questioned",
        "Radio host Glenn Harlow read the mayor's letter on air. His co-host, Amy Chen, said "
        'nothing.\n\n"What made him change his mind?" Harlow questioned.',
        "change his mind",
        "Glenn Harlow",
        "person",
    ),
    row(
        "interjected",
        "At the hearing, Councillor Rita Vance said the new bridge was on budget, to which "
        'Omar Haddad interjected: "It is not." He said costs had risen by a third.',
        "It is not",
        "Omar Haddad",
        "person",
    ),
    row(
        "ruled-that",
        "The watchdog's report, written by its chief inspector, Alan Birch, said the force had "
        "improved. The tribunal later ruled that the force's conduct had been "
        '"wholly unacceptable."',
        "wholly unacceptable",
        "tribunal",
        "group",
        "The tribunal",
    ),
    # An opening participle clause with a name in it ("Sentencing Paul Dench, 52,"): the
    # name right before the verb says it, in either parse of the sentence.
    row(
        "sentencing-x-judge-y-said",
        "A former council officer has been jailed for four years for taking bribes.\n\n"
        + SENTENCING,
        "betrayed the trust",
        "Helen Marsh",
        "person",
    ),
    row(
        "sentencing-x-judge-y-said-alone", SENTENCING, "betrayed the trust", "Helen Marsh", "person"
    ),
    # '"…?" asked the boy': after the closing mark, the one after "asked" asks (the parse
    # reads it as the one asked); a name set off after the description is who it is.
    row(
        "asked-the-boy",
        "Mayor Ellen Voss took questions at the town hall.\n\n"
        "The last question came from a young child.\n\n"
        '"How big will the new pool be?" asked the boy, who was wearing a red cap, as the '
        "audience laughed.",
        "How big will",
        "boy",
        "person",
        "the boy",
    ),
    row(
        "asked-the-captain-named",
        "Coach Dana Ruiz met the players after the game. "
        '"Why did we stop running?" asked the captain, Leo Marsh.',
        "stop running",
        "Leo Marsh",
        "person",
    ),
    # '"…," Roe went on': "go on" after a quotation is its cue (not "went on to win").
    row(
        "went-on",
        '"Can happen to anyone," Ruth Kaplan said.\n\n'
        '"You know, it happens, right?" Tom Berger went on, as if he had not heard her. '
        '"But you have to get over it."',
        "it happens, right",
        "Tom Berger",
        "person",
    ),
    # Names the model cuts in two: lower-case particles inside them, a quoted nickname.
    row(
        "name-particles",
        "Commission President Ursula von der Leyen called the package a landmark. "
        '"We are setting the standard," von der Leyen told reporters in Brussels.',
        "setting the standard",
        "Ursula von der Leyen",
        "person",
        "von der Leyen",
    ),
    row(
        "quoted-nickname",
        'Wrestler-turned-actor Dwayne "The Rock" Johnson thanked fans at the premiere.\n\n'
        '"This film is for my mother," Johnson said on the red carpet.',
        "for my mother",
        'Dwayne "The Rock" Johnson',
        "person",
    ),
    # A headline's "Surname: '…'" (the model missed the full name, which comes later) and
    # a role noun after a quotation that names only a place: the one person the article
    # names before.
    row(
        "headline-surname-colon",
        "Starmer: 'We will rebuild Britain'\n\n"
        "Keir Starmer has set out his plans for the next five years.\n\n"
        '"We will rebuild Britain," the prime minister told the conference in Liverpool.',
        "rebuild Britain,",
        "Keir Starmer",
        "person",
        "the prime minister",
    ),
    # Readers' letters and vox pops: "Name, Town:" before the words.
    row(
        "name-town-colon",
        "Readers responded in their hundreds to our report on the library.\n\n"
        'Anne Lyle, Harrogate: "The library was my lifeline when I was out of work."',
        "my lifeline",
        "Anne Lyle",
        "person",
    ),
    # "In the words of X", "in X's words": X speaks, as with "according to X".
    row(
        "in-the-words-of",
        "The orchestra has a new director.\n\nIn the words of the leader of its violins, Tom "
        'Reyes, "It feels like someone opened a window."',
        "opened a window",
        "Tom Reyes",
        "person",
    ),
    # The parse may make a place word the subject and hang the speaker on it in apposition.
    row(
        "speaker-set-off-after-a-place",
        "Ex-footballer jailed for fraud\n\nFormer footballer Danny Reeve has been jailed for "
        "four years for a fraud that cost investors £2m.\n\nSentencing him at Southwark Crown "
        'Court, Judge Miriam Holt said Reeve had "preyed on friends and former team-mates".\n\n'
        '"You used your fame to make people trust you," she told him.\n\nReeve, 44, showed no '
        "emotion as the sentence was read out.\n\nOutside court, one of his victims, retired "
        'plumber Ken Matthews, said: "He took everything I had. I hope he thinks about that '
        'every day."',
        "everything I had",
        "Ken Matthews",
        "person",
    ),
    # The parser may end a sentence inside a name, leaving the speech verb's subject before
    # the break.
    row(
        "subject-before-a-false-sentence-break",
        "Climate protesters blocked a motorway for three hours on Tuesday.\n\nPolice arrested "
        '14 people. Chief Superintendent Ravi Kapoor said: "The right to protest does not '
        'include the right to endanger lives."\n\nA spokeswoman for the group, Earth First '
        'Now, said: "We are sorry for the disruption, but we are not sorry for acting."',
        "not sorry for acting",
        "A spokeswoman for the group",
    ),
    # A couple sharing a surname written once, tagged as two entities (one of them a body).
    row(
        "couple-tagged-in-two",
        "Couple celebrate 70th anniversary\n\nArthur and Vera Bell, both 92, celebrated their "
        '70th wedding anniversary on Saturday.\n\n"The secret is to never go to bed angry," '
        'Vera said.\n\nArthur disagreed. "The secret is to let her win," he joked.',
        "never go to bed angry",
        "Vera Bell",
        "person",
    ),
    # A quotation standing alone, whose owner the next paragraph names.
    row(
        "quotation-named-by-the-next-paragraph",
        'Parents call for beach inquiry\n\n"We were told it was safe."\n\nThose were the '
        "words of Carla Mendes, whose son fell ill after swimming at Brook Bay last month.",
        "told it was safe",
        "Carla Mendes",
        "person",
    ),
    row(
        "quotation-named-by-the-next-paragraph-from",
        'Mayor defends festival spending\n\n"Every pound was accounted for."\n\nThat was the '
        "message from Mayor Keith Rowe on Wednesday as he faced questions about the cost of "
        "the summer festival.",
        "accounted for",
        "Keith Rowe",
        "person",
    ),
    # A name set off after a subject the parse made of a fronted phrase ("Outside court"),
    # left untagged by the small model: the speaker's words are the name's.
    row(
        "set-off-name-untagged",
        "Reeve was jailed for eight years.\n\nOutside court, one of his victims, Edna Price, "
        '83, said: "I can sleep now."',
        "sleep now",
        "Edna Price",
        "person",
        "Edna Price",
    ),
    # ... and, tagged, the ranker's pick in the words the cue names.
    row(
        "set-off-name-in-the-cue-words",
        "Reeve, 44, showed no emotion as the sentence was read out.\n\nOutside court, one of "
        'his victims, retired plumber Ken Matthews, said: "He took everything I had."',
        "everything I had",
        "Ken Matthews",
        "person",
        "retired plumber Ken Matthews",
    ),
    # Two people sharing a surname, told apart by their titles and a husband described.
    row(
        "mr-first-then-mrs-a-husband-described",
        "Tom Ellery and Jo Ellery had lived there for years.\n\nHer husband, Tom Ellery, was "
        'at work.\n\n"We heard a crack," Mr Ellery said.\n\n"It was terrifying," Mrs '
        "Ellery said.",
        "terrifying",
        "Jo Ellery",
        "person",
    ),
    # A sentence of its own in quotation marks after one that frames a person's view ("For
    # Petrova, …", "To Mr Ilves, …"): that person's words.
    row(
        "own-sentence-after-for-a-person",
        "Coach returns home\n\nNadia Petrova left the town at 17. Now 41, she is back.\n\n"
        '"I said I would never come back," Petrova says.\n\nFor Petrova, the reward is '
        'simple. "When a child wins a race, that is everything."',
        "that is everything",
        "Nadia Petrova",
        "person",
    ),
    row(
        "own-sentence-after-to-a-person",
        "Estate changes\n\nSergeant Tom Ilves has patrolled the estate for ten years.\n\n"
        'To Mr Ilves, the change is obvious. "People talk to us now."',
        "talk to us",
        "Tom Ilves",
        "person",
    ),
    # A joint subject whose second person is named after a noun.
    row(
        "joint-subject-named-after-a-noun",
        "The river burst its banks on Tuesday.\n\nFarmer Tom Ellery, 54, watched from the "
        'ridge.\n\nEllery and his wife, Jo, said: "We have nowhere else to go."',
        "nowhere else",
        "Tom Ellery and Jo",
        None,
        "Ellery and his wife, Jo",
    ),
]


@pytest.mark.parametrize(("text", "quoted", "speaker", "kind", "speaker_text"), LAYOUT_ROWS)
def test_house_styles_and_layouts(nlp, text, quoted, speaker, kind, speaker_text):
    check(quote_of(text, quoted), speaker, kind, speaker_text)
