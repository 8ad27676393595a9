"""Tables of the store (SQLAlchemy Core). One place for the schema; sql.py uses it."""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

# 2: stories lost the never-written `first_published` column (dates come from the articles).
# A version-1 store opens unchanged (its column stays, NULL); an older newsloom refuses a
# version-2 store instead of failing on the missing column when it writes a story.
# 3: quotes gained `speaker_text`, `speaker_confidence` and `speaker_kind`; an older store gets
# the columns, filled from its stored analyses, when it is opened (``migrations.py``).
# 4: tracked quotes (the four ``tracked_*`` tables), built from the stored stories when an
# older store is opened.
# 5: the story index as rows (the ``index_*`` tables of ``index.py``), converted from the one
# JSON meta row an older store kept it in when it is opened.
# 6: what the lists sort and filter stories by (``stories.first_date`` ... ``n_conflicts``,
# filled from the stored stories and their articles) and the indexes the lists' keyset pages
# and facets read (``lists.py``).
# 7: profiles of speakers, outlets and people (the ``profile_*`` tables), filled from the
# stored stories when an older store is opened (``profiles.py``).
# 8: stop fingerprints of tracked quotes (``tracked_prints``, ``tracked_stops``); an older
# store's tracked quotes are rebuilt with them when it is opened.
# 9: every run of a wording fingerprinted and each node keeps the people its articles name
# (``stories/tracking.py``); an older store's tracked quotes are rebuilt when it is opened.
# ``tracked_redirects`` (new) keeps the ids tracked quotes had before a write changed them.
# 10: the story list's facet values as rows (``list_facets``, written with each story), and
# the outlet profile's columns in an index (``ix_profile_outlets_summary``): an older store's
# facet rows are filled from its stories and the index rebuilt when it is opened.
# 11: ``tracked_mentions.variant`` (how the mention words its tracked quote: the lists' variant
# facet), filled from the stored tracked quotes when an older store is opened.
# 12: the profile names' index by name holds the key too (``ix_profile_names_by_name``, in
# place of ``ix_profile_names_name``): both backends answer a lookup by name from the index
# alone, where SQLite's planner took the primary key for ``kind`` and scanned every name.
SCHEMA_VERSION = 12

metadata = MetaData()

meta = Table(
    "newsloom_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

articles = Table(
    "articles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("origin", Text, nullable=False),
    Column("path", Text),
    Column("format", String(16), nullable=False),
    Column("source", Text),
    Column("title", Text),
    Column("published", String(10)),
    Column("url", Text),
    Column("text", Text, nullable=False),
    Column("ingested_at", Float, nullable=False),
    Index("ix_articles_published", "published", "id"),
    Index("ix_articles_source", "source"),
)

# The full per-article analysis as JSON: the tables below are queryable projections of it.
analyses = Table(
    "analyses",
    metadata,
    Column(
        "article_id", String(32), ForeignKey("articles.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("data", Text, nullable=False),
)

entities = Table(
    "entities",
    metadata,
    Column("article_id", String(32), ForeignKey("articles.id", ondelete="CASCADE"), nullable=False),
    Column("entity_id", String(32), nullable=False),
    Column("name", Text, nullable=False),
    Column("type", String(16), nullable=False),
    Column("age", Integer),
    Column("roles", Text, nullable=False),
    Column("mentions", Integer, nullable=False),
    Index("ix_entities_name", "name"),
    Index("ix_entities_article", "article_id"),
)

quotes = Table(
    "quotes",
    metadata,
    Column("article_id", String(32), ForeignKey("articles.id", ondelete="CASCADE"), nullable=False),
    Column("start", Integer, nullable=False),
    Column("end", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("cue", Text),
    Column("speaker", Text),
    # The words naming the speaker ("she"), also when ``speaker`` is unresolved (NULL); how
    # sure the attribution is (0-1, NULL when not scored); person, organisation, group, ...
    Column("speaker_text", Text),
    Column("speaker_confidence", Float),
    Column("speaker_kind", String(16)),
    Index("ix_quotes_speaker", "speaker"),
    Index("ix_quotes_article", "article_id"),
)

posts = Table(
    "posts",
    metadata,
    Column("article_id", String(32), ForeignKey("articles.id", ondelete="CASCADE"), nullable=False),
    Column("post_id", String(32), nullable=False),
    Column("platform", String(32), nullable=False),
    Column("handle", Text, nullable=False),
    Column("author", Text),
    Column("date", String(10)),
    Column("text", Text, nullable=False),
    Index("ix_posts_post", "post_id"),
    Index("ix_posts_article", "article_id"),
)

stories = Table(
    "stories",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("title", Text),
    Column("n_articles", Integer, nullable=False),
    Column("data", Text, nullable=False),
    # For the story list (version 6; ``lists.story_columns``): its articles' first and last
    # dates ('' when none is dated, so the keyset sorts never meet NULL), its outlets, quotes
    # and conflicts (fact groups in conflict and people with conflicting ages).
    Column("first_date", String(10), nullable=False, server_default=""),
    Column("last_date", String(10), nullable=False, server_default=""),
    Column("n_outlets", Integer, nullable=False, server_default="0"),
    Column("n_quotes", Integer, nullable=False, server_default="0"),
    Column("n_conflicts", Integer, nullable=False, server_default="0"),
    Index("ix_stories_size", "n_articles", "id"),
    Index("ix_stories_first_date", "first_date", "id"),
)

story_articles = Table(
    "story_articles",
    metadata,
    Column(
        "article_id", String(32), ForeignKey("articles.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("story_id", String(32), nullable=False),
    Index("ix_story_articles_story", "story_id"),
)

# Stories an index update changed and that are not rebuilt yet: written in the same
# transaction as the index, each row removed in the transaction that stores its story, so a
# run killed in between leaves a record the next run finishes (``api.ingest_items``).
pending_rebuilds = Table(
    "pending_rebuilds",
    metadata,
    Column("story_key", String(32), primary_key=True),
)

# Story ids that no longer name a stored story (merged into another, or rebuilt under a new
# id) -> the id of the story they became. Written in the transaction that stores the story;
# an id that names a stored story again is taken out. ``new_id`` is kept pointing at a live
# story when that one moves on too, so a look-up is one hop (``SqlStore.story_redirect``).
story_redirects = Table(
    "story_redirects",
    metadata,
    Column("old_id", String(32), primary_key=True),
    Column("new_id", String(32), nullable=False),
    Index("ix_story_redirects_new", "new_id"),
)

# Tracked quotes (``stories/tracking.py``, kept by ``store/tracking.py``). A node is one story
# quote (key "<story id>:<quote id>", its JSON with its articles' outlets and dates) and the
# tracked quote it belongs to; its fingerprints find candidate nodes without reading the rest.
# Rewritten in the transaction that stores the node's story.
tracked_nodes = Table(
    "tracked_nodes",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("story_id", String(32), nullable=False),
    Column("tracked_id", String(32)),
    Column("data", Text, nullable=False),
    Index("ix_tracked_nodes_story", "story_id"),
    Index("ix_tracked_nodes_tracked", "tracked_id"),
)

tracked_keys = Table(
    "tracked_keys",
    metadata,
    Column("fingerprint", String(20), nullable=False),
    Column("node_key", String(80), nullable=False),
    Index("ix_tracked_keys_fingerprint", "fingerprint"),
    Index("ix_tracked_keys_node", "node_key"),
)

# Named speakers whose stored nodes carry a fingerprint, with how many nodes (kept per story
# write), and the fingerprints found under more than ``STOP_SPEAKERS`` names: stop
# fingerprints, which find no candidates (``stories/tracking.py``).
tracked_prints = Table(
    "tracked_prints",
    metadata,
    Column("fingerprint", String(20), primary_key=True),
    Column("speaker", Text, primary_key=True),
    Column("nodes", Integer, nullable=False),
)

tracked_stops = Table(
    "tracked_stops",
    metadata,
    Column("fingerprint", String(20), primary_key=True),
)

tracked_quotes = Table(
    "tracked_quotes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("text", Text, nullable=False),
    Column("speaker", Text),
    Column("n_mentions", Integer, nullable=False),
    Column("n_outlets", Integer, nullable=False),
    Column("n_stories", Integer, nullable=False),
    Column("first_date", String(10)),
    Column("last_date", String(10)),
    Column("data", Text, nullable=False),
    Index("ix_tracked_quotes_speaker", "speaker"),
    Index("ix_tracked_quotes_mentions", "n_mentions"),
    Index("ix_tracked_quotes_mentions_id", "n_mentions", "id"),
)

# Every stored quote mention -> its one tracked quote, and how it words it against the tracked
# quote's canonical wording (``TrackedMention.variant``; version 11, NULL until filled).
tracked_mentions = Table(
    "tracked_mentions",
    metadata,
    Column("article_id", String(32), primary_key=True),
    Column("start", Integer, primary_key=True),
    Column("end", Integer, primary_key=True),
    Column("tracked_id", String(32), nullable=False),
    Column("variant", String(16)),
    Index("ix_tracked_mentions_tracked", "tracked_id"),
    Index("ix_tracked_mentions_variant", "variant", "tracked_id"),
)

# Profiles (``profiles.py``): what the speaker, outlet and person pages read, kept per story in
# the transaction that stores the story. A name's key is its URL form (``text/keys.py``); the
# names table says which spellings a key stands for (the quotes and entities hold spellings).
profile_names = Table(
    "profile_names",
    metadata,
    Column("kind", String(8), primary_key=True),  # speaker | outlet | person
    Column("key", String(120), primary_key=True),
    Column("name", Text, primary_key=True),
    Index("ix_profile_names_by_name", "kind", "name", "key"),
)

# One row per story: its dates and size (the front page's stories by day).
profile_stories = Table(
    "profile_stories",
    metadata,
    Column("story_id", String(32), primary_key=True),
    Column("first_date", String(10)),
    Column("last_date", String(10)),
    Column("n_articles", Integer, nullable=False),
    Index("ix_profile_stories_first", "first_date"),
)

# One row per story and outlet: its share of the story and what it did there (counts), with
# its exclusives, copies and credits as JSON for the outlet page.
profile_outlets = Table(
    "profile_outlets",
    metadata,
    Column("story_id", String(32), primary_key=True),
    Column("outlet_key", String(120), primary_key=True),
    Column("outlet", Text, nullable=False),
    Column("n_articles", Integer, nullable=False),
    Column("story_articles", Integer, nullable=False),
    Column("first_date", String(10)),
    Column("exclusives", Integer, nullable=False),
    Column("copied", Integer, nullable=False),
    Column("credits", Integer, nullable=False),
    Column("hedges", Integer, nullable=False),
    Column("own_words", Integer, nullable=False),
    Column("data", Text, nullable=False),
    # Every column the outlet page sums or groups (version 10): its totals, hedging by month
    # and shown name are read from the index alone (an outlet of 10,000 stories: 3 index
    # range scans instead of 3 x 10,000 table rows).
    Index(
        "ix_profile_outlets_summary",
        "outlet_key",
        "first_date",
        "n_articles",
        "exclusives",
        "copied",
        "credits",
        "hedges",
        "own_words",
        "outlet",
    ),
)

# Every article of a stored story -> its outlet (as the story names it) and date.
profile_articles = Table(
    "profile_articles",
    metadata,
    Column("article_id", String(32), primary_key=True),
    Column("story_id", String(32), nullable=False),
    Column("outlet_key", String(120), nullable=False),
    Column("published", String(10)),
    Index("ix_profile_articles_outlet", "outlet_key", "published"),
    Index("ix_profile_articles_story", "story_id"),
)

# Conflicts a person is part of: their stated ages disagreeing, or a fact group in conflict
# whose subject names them (JSON: what the person page shows).
profile_conflicts = Table(
    "profile_conflicts",
    metadata,
    Column("story_id", String(32), nullable=False),
    Column("person_key", String(120), nullable=False),
    Column("data", Text, nullable=False),
    Index("ix_profile_conflicts_person", "person_key"),
    Index("ix_profile_conflicts_story", "story_id"),
)

# A list's facet values kept as rows (version 10; ``lists.py``): one row per row key and value
# of each facet declared ``stored``, written in the transaction that writes the row (a story:
# ``lists.write_story_facets``). A facet filter is a primary-key probe, and a facet's count
# over the rows other filters leave joins these rows alone (both indexes cover the query), where
# a facet computed from the articles and quotes joined three tables per row.
list_facets = Table(
    "list_facets",
    metadata,
    Column("list", String(16), primary_key=True),
    Column("facet", String(16), primary_key=True),
    Column("value", Text, primary_key=True),  # '' for none (``listing.NO_VALUE``)
    Column("key", String(120), primary_key=True),
    Index("ix_list_facets_key", "list", "facet", "key", "value"),
)

# A tracked quote's id is its earliest-keyed mention's: when a write gives its nodes another
# tracked quote (a node with an earlier key joins, two tracked quotes join), the old id
# points at the tracked quote holding most of its nodes, so links to it keep working.
tracked_redirects = Table(
    "tracked_redirects",
    metadata,
    Column("old_id", String(32), primary_key=True),
    Column("new_id", String(32), nullable=False),
    Index("ix_tracked_redirects_new", "new_id"),
)

# Full-text search (SQLite only): an FTS5 table, filled in the same transaction as its
# article. One row per article (title, text) and one per quote (speaker, quote text); the
# UNINDEXED columns say what a hit points at. Porter stemming so "collapsed" finds "collapse".
SEARCH_TABLE = "search_fts"
SEARCH_DDL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {SEARCH_TABLE} USING fts5("
    "title, body, kind UNINDEXED, article_id UNINDEXED, span_start UNINDEXED, span_end UNINDEXED, "
    "tokenize = 'porter unicode61 remove_diacritics 2')"
)
