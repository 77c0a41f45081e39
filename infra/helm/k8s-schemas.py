#!/usr/bin/env python3
"""
Kubernetes' OpenAPI v2 document (api/openapi-spec/swagger.json of the k8s.io/kubernetes module)
to one standalone JSON schema per kind, the way kubeconform expects them offline: every $ref
inlined, int-or-string as oneOf, and additionalProperties false wherever properties are listed
(kubeconform -strict, kubectl's own validation). Files are named
`{kind}{-group}-{version}.json` (kubeconform's `{{ .ResourceKind }}{{ .KindSuffix }}`), e.g.
deployment-apps-v1.json, service-v1.json, ingress-networking-v1.json.

Usage: k8s-schemas.py SWAGGER_JSON OUT_DIR
"""
import json
import os
import sys

REF_PREFIX = "#/definitions/"


def expand(node, definitions, stack):
    """The node with every $ref replaced by its definition (a recursive one stays open: {})."""
    if isinstance(node, list):
        return [expand(item, definitions, stack) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("$ref"), str):
        name = node["$ref"][len(REF_PREFIX):]
        if name in stack:
            return {}
        inner = dict(definitions[name])
        # A description next to the $ref describes the use; keep the definition's otherwise.
        return expand(inner, definitions, stack | {name})
    out = {}
    for key, value in node.items():
        if key == "format" and value == "int-or-string":
            continue
        out[key] = expand(value, definitions, stack)
    if node.get("format") == "int-or-string":
        out.pop("type", None)
        out["oneOf"] = [{"type": "string"}, {"type": "integer"}]
    return out


def strict(node):
    if isinstance(node, list):
        for item in node:
            strict(item)
    elif isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for value in node.values():
            strict(value)
    return node


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    swagger_path, out_dir = sys.argv[1], sys.argv[2]
    with open(swagger_path, encoding="utf-8") as handle:
        definitions = json.load(handle)["definitions"]
    os.makedirs(out_dir, exist_ok=True)
    written = 0
    for name, definition in definitions.items():
        for gvk in definition.get("x-kubernetes-group-version-kind", []):
            group, version, kind = gvk.get("group", ""), gvk["version"], gvk["kind"]
            suffix = f"-{group.split('.')[0].lower()}-{version.lower()}" if group else f"-{version.lower()}"
            schema = strict(expand(definition, definitions, {name}))
            schema["$schema"] = "http://json-schema.org/schema#"
            with open(os.path.join(out_dir, f"{kind.lower()}{suffix}.json"), "w", encoding="utf-8") as out:
                json.dump(schema, out)
            written += 1
    if written == 0:
        sys.exit(f"{swagger_path}: no definition with x-kubernetes-group-version-kind")
    print(f"{written} Kubernetes schemas written to {out_dir}")


if __name__ == "__main__":
    main()
