"""``/docs``: the API's endpoints as a plain HTML page built from the OpenAPI document.

FastAPI's Swagger UI loads its script and styles from a CDN, which the Content-Security-Policy
(and the rule of no network at run time) forbids; this page needs nothing but the site's CSS.
"""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .deps import PagesDep

METHODS = ("get", "post", "put", "patch", "delete")

router = APIRouter(include_in_schema=False)


def schema_name(schema: dict[str, Any]) -> str:
    """A schema as a reader would name it: its model, or its type."""
    ref = schema.get("$ref") or (schema.get("items") or {}).get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        return f"list of {name}" if "items" in schema else name
    if "anyOf" in schema:
        return " or ".join(schema_name(s) for s in schema["anyOf"])
    return str(schema.get("type", "any"))


def parameter(p: dict[str, Any]) -> dict[str, Any]:
    schema = p.get("schema", {})
    limits = [f"{k} {schema[k]}" for k in ("minimum", "maximum", "maxLength") if k in schema]
    return {
        "name": p["name"],
        "where": p["in"],
        "required": p.get("required", False),
        "type": schema_name(schema),
        "default": schema.get("default"),
        "limits": ", ".join(limits),
        "description": p.get("description") or schema.get("description") or "",
    }


def body_and_answer(op: dict[str, Any]) -> tuple[str | None, str | None]:
    """The names of the JSON request body and of the successful response."""
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    answer = None
    for code, response in op.get("responses", {}).items():
        if code.startswith("2"):
            content = response.get("content", {}).get("application/json", {})
            answer = schema_name(content["schema"]) if "schema" in content else None
    return (schema_name(body["schema"]) if "schema" in body else None), answer


def endpoints(openapi: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per operation of the OpenAPI document, in the document's order."""
    out = []
    for path, item in openapi.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body, answer = body_and_answer(op)
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "anchor": f"{method}-{path.strip('/').replace('/', '-')}",
                    "summary": op.get("summary", ""),
                    "description": op.get("description", ""),
                    "parameters": [parameter(p) for p in op.get("parameters", [])],
                    "body": body,
                    "answer": answer,
                    "statuses": sorted(op.get("responses", {})),
                    "needs_token": bool(op.get("security")),
                }
            )
    return out


@router.get("/docs", response_class=HTMLResponse)
def docs_page(request: Request, pages: PagesDep) -> HTMLResponse:
    """Every API endpoint with its parameters, body, answer and statuses."""
    return HTMLResponse(pages.docs(endpoints(request.app.openapi())))
