"""Which person of a story a name written in one article stands for.

A story's merged people (``entities.merge_entities``) carry every form outlets wrote them in.
A form one person alone is called ("Jane Roe", "Roe") names that person anywhere in the
story. A form several are called ("Page" for two Pages) names the one of them the article
itself names, and elsewhere nobody: a figure given for it is kept but is never certain.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..models import StoryEntity


@dataclass(frozen=True)
class PersonForms:
    in_article: dict[tuple[str, str], str]  # (article id, folded form) -> canonical (folded)
    anywhere: dict[str, str]  # folded form one person alone is called -> canonical
    shared: frozenset[str]  # folded forms several people are called

    @classmethod
    def of(cls, entities: Sequence[StoryEntity]) -> PersonForms:
        owners: dict[str, set[str]] = defaultdict(set)
        local: dict[tuple[str, str], set[str]] = defaultdict(set)
        for entity in entities:
            if entity.type != "PERSON":
                continue
            canonical = entity.name.casefold()
            for form in {n.casefold() for n in [entity.name, *entity.aliases]}:
                owners[form].add(canonical)
                for aid in entity.article_ids:
                    local[(aid, form)].add(canonical)
        shared = frozenset(f for f, names in owners.items() if len(names) > 1)
        return cls(
            in_article={k: min(v) for k, v in local.items() if k[1] in shared and len(v) == 1},
            anywhere={f: min(names) for f, names in owners.items() if len(names) == 1},
            shared=shared,
        )

    def people(self) -> set[str]:
        return {*self.anywhere.values(), *self.in_article.values()}

    def _lookup(self, folded: str, article_id: str) -> str | None:
        return self.anywhere.get(folded) or self.in_article.get((article_id, folded))

    def canonical(self, name: str | None, article_id: str) -> str:
        """The person's canonical name (folded); "wife of Roe" -> "wife of jane roe"; a name
        no person of the story is called, folded as it is."""
        folded = (name or "").casefold()
        if (found := self._lookup(folded, article_id)) is not None:
            return found
        noun, sep, owner = folded.partition(" of ")
        if sep and (found := self._lookup(owner, article_id)) is not None:
            return f"{noun} of {found}"
        return folded

    def certain(self, name: str | None, article_id: str) -> bool:
        """False for a form several people are called that the article does not settle."""
        folded = (name or "").casefold()
        return folded not in self.shared or (article_id, folded) in self.in_article
