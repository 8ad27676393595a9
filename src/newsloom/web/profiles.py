"""Speaker, outlet and person pages (``speaker-KEY.html`` ...) and their JSON twins
(``/api/speakers/KEY`` ...), by name key (``text/keys.py``); reads are the store's profile
methods (``store/profiles.py``)."""

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import HTMLResponse

from ..store import Store, as_dict
from ..text.keys import MAX_KEY_CHARS, is_key
from . import schemas as s
from .api import ERRORS_404
from .deps import PagesDep, StoreDep

KeyParam = Annotated[
    str,
    Path(
        max_length=MAX_KEY_CHARS,
        description="A name key: the name folded, words joined by '-' (e.g. jane-roe).",
    ),
]

router = APIRouter()


def _profile(store: Store, kind: str, key: str) -> Any:
    if not is_key(key):
        return None
    readers = {
        "speaker": store.speaker_profile,
        "outlet": store.outlet_profile,
        "person": store.person_profile,
    }
    return readers[kind](key)


def _found(store: Store, kind: str, key: str) -> dict[str, Any]:
    found = _profile(store, kind, key)
    if found is None:
        raise HTTPException(404, f"no {kind} with key {key!r} (keys are in the {kind} pages' URLs)")
    return as_dict(found)


@router.get(
    "/api/speakers/{key}", response_model=s.SpeakerProfile, tags=["profiles"], responses=ERRORS_404
)
def get_speaker(store: StoreDep, key: KeyParam) -> Any:
    """Everything one speaker said across stories (their tracked quotes), with outlets, dates
    and stories."""
    return _found(store, "speaker", key)


@router.get(
    "/api/outlets/{key}", response_model=s.OutletProfile, tags=["profiles"], responses=ERRORS_404
)
def get_outlet(store: StoreDep, key: KeyParam) -> Any:
    """One outlet: its articles, its share of each story, what it alone reported, the passages
    it copied, the sources it credited and its hedging over time."""
    return _found(store, "outlet", key)


@router.get(
    "/api/people/{key}", response_model=s.PersonProfile, tags=["profiles"], responses=ERRORS_404
)
def get_person(store: StoreDep, key: KeyParam) -> Any:
    """One person: the ages and roles stated for them over time, and the conflicts they are
    part of."""
    return _found(store, "person", key)


def _page(store: Store, pages: Any, kind: str, key: str) -> HTMLResponse:
    found = _profile(store, kind, key)
    if found is None:
        return HTMLResponse(pages.not_found(f"{kind} with this name"), status_code=404)
    return HTMLResponse(pages.profile(kind, found))


@router.get("/speaker-{key}.html", response_class=HTMLResponse, include_in_schema=False)
def speaker_page(store: StoreDep, pages: PagesDep, key: str) -> HTMLResponse:
    return _page(store, pages, "speaker", key)


@router.get("/outlet-{key}.html", response_class=HTMLResponse, include_in_schema=False)
def outlet_page(store: StoreDep, pages: PagesDep, key: str) -> HTMLResponse:
    return _page(store, pages, "outlet", key)


@router.get("/person-{key}.html", response_class=HTMLResponse, include_in_schema=False)
def person_page(store: StoreDep, pages: PagesDep, key: str) -> HTMLResponse:
    return _page(store, pages, "person", key)
