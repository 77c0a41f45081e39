#!/usr/bin/env bash
# Checks of the deployment files, offline (docs/operations.md, "Checking the chart"):
#   helm lint and helm template of infra/helm/leadstream with each values set in its ci/ folder,
#   every rendered manifest validated by kubeconform -strict against Kubernetes' and KEDA's schemas,
#   promtool check rules (and its unit tests) on infra/prometheus, the Grafana dashboard's JSON.
# Installs what is missing with `go install` from the Go module proxy (kept in GOPATH/bin) and
# builds the JSON schemas from the k8s.io/kubernetes and KEDA module zips into a cache outside the
# repository ($LEADSTREAM_SCHEMA_CACHE, default ~/.cache/leadstream-k8s-schemas). Fails loudly
# when a tool cannot be had.
set -euo pipefail

HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.8.0
PROMETHEUS_VERSION=v0.316.0
KUBERNETES_VERSION=v1.34.4
KEDA_VERSION=v2.21.0

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
chart="$root/infra/helm/leadstream"
cache="${LEADSTREAM_SCHEMA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/leadstream-k8s-schemas}"
schemas="$cache/kubernetes-$KUBERNETES_VERSION-keda-$KEDA_VERSION"
started=$SECONDS

die() {
  echo "infra/helm/check.sh: FAILED: $*" >&2
  exit 1
}
step() { echo "== $* ($((SECONDS - started))s)"; }

command -v go >/dev/null || die "the go command is missing: helm, kubeconform and promtool are installed with go install"
command -v python3 >/dev/null || die "python3 is missing: it converts the Kubernetes and KEDA schemas"
gobin="$(go env GOBIN)"
[[ -n "$gobin" ]] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"

# go install MODULE/CMD@VERSION unless GOPATH/bin already has that version of the binary.
tool() {
  local name="$1" package="$2" module="$3" version="$4"
  shift 4
  if [[ -x "$gobin/$name" ]] && go version -m "$gobin/$name" 2>/dev/null | grep -qE "^[[:space:]]+mod[[:space:]]+$module[[:space:]]+$version([[:space:]]|$)"; then
    return
  fi
  step "installing $name $version (go install $* $package@$version; the first time takes minutes)"
  go install "$@" "$package@$version" || die "go install $package@$version failed: $name cannot be had"
  [[ -x "$gobin/$name" ]] || die "go install $package@$version left no $gobin/$name"
}
tool helm helm.sh/helm/v3/cmd/helm helm.sh/helm/v3 "$HELM_VERSION"
tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform github.com/yannh/kubeconform "$KUBECONFORM_VERSION"
# remove_all_sd leaves out the service-discovery plugins (cloud SDKs) that rule checks never use.
tool promtool github.com/prometheus/prometheus/cmd/promtool github.com/prometheus/prometheus "$PROMETHEUS_VERSION" -tags remove_all_sd

# The directory of a module version in the module cache (downloaded once from the proxy).
module_dir() {
  local dir
  dir="$(go mod download -json "$1@$2" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("Dir", ""))')" || die "go mod download $1@$2 failed"
  [[ -d "$dir" ]] || die "go mod download $1@$2 gave no directory"
  echo "$dir"
}

if [[ ! -f "$schemas/.complete" ]]; then
  step "building JSON schemas into $schemas"
  rm -rf "$schemas" && mkdir -p "$schemas"
  k8s="$(module_dir k8s.io/kubernetes "$KUBERNETES_VERSION")"
  python3 "$root/infra/helm/k8s-schemas.py" "$k8s/api/openapi-spec/swagger.json" "$schemas" || die "converting Kubernetes' OpenAPI document failed"
  keda="$(module_dir github.com/kedacore/keda/v2 "$KEDA_VERSION")"
  kubeconform_dir="$(module_dir github.com/yannh/kubeconform "$KUBECONFORM_VERSION")"
  # kubeconform's own CRD converter needs PyYAML: the system's, else a venv in the cache.
  python=python3
  if ! python3 -c 'import yaml' 2>/dev/null; then
    [[ -x "$cache/venv/bin/python" ]] || python3 -m venv "$cache/venv" || die "python3 -m venv failed (apt-get install python3-venv, or python3-yaml)"
    "$cache/venv/bin/python" -c 'import yaml' 2>/dev/null || "$cache/venv/bin/pip" install --quiet pyyaml || die "pip install pyyaml failed"
    python="$cache/venv/bin/python"
  fi
  (cd "$schemas" && DENY_ROOT_ADDITIONAL_PROPERTIES=1 FILENAME_FORMAT='{kind}-{group}-{version}' \
    "$python" "$kubeconform_dir/scripts/openapi2jsonschema.py" "$keda/config/crd/bases/keda.sh_scaledobjects.yaml" >/dev/null) ||
    die "converting KEDA's ScaledObject CRD failed"
  for file in deployment-apps-v1 service-v1 ingress-networking-v1 poddisruptionbudget-policy-v1 job-batch-v1 configmap-v1 secret-v1 scaledobject-keda-v1alpha1; do
    [[ -s "$schemas/$file.json" ]] || die "no schema $file.json in $schemas"
  done
  touch "$schemas/.complete"
fi

step "helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, promtool $PROMETHEUS_VERSION, schemas of Kubernetes $KUBERNETES_VERSION and KEDA $KEDA_VERSION"
failed=0
value_sets=("")
for file in "$chart"/ci/*-values.yaml; do value_sets+=("$file"); done
for values in "${value_sets[@]}"; do
  args=()
  label="default values"
  if [[ -n "$values" ]]; then
    args=(-f "$values")
    label="${values#"$root"/}"
  fi
  step "helm lint --strict ($label)"
  helm lint --strict "$chart" "${args[@]}" || failed=1
  step "helm template | kubeconform -strict ($label)"
  rendered="$(helm template leadstream "$chart" --namespace leads "${args[@]}")" || { failed=1; continue; }
  echo "$rendered" | kubeconform -strict -summary -schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json" || failed=1
done

step "promtool check rules"
promtool check rules "$root/infra/prometheus/alerts.yml" || failed=1
step "promtool test rules"
promtool test rules "$root/infra/prometheus/alerts.test.yml" || failed=1

step "Grafana dashboard JSON"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["panels"], "no panels"; print(len(d["panels"]), "panels")' "$root/infra/grafana/leadstream.json" || failed=1

[[ $failed -eq 0 ]] || die "see the errors above"
echo "infra/helm/check.sh: all checks passed in $((SECONDS - started))s"
