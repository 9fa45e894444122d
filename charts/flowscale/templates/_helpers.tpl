{{/* The release's base name: the release name, with the chart name appended unless it holds it. */}}
{{- define "flowscale.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 54 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 54 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of the operator's Deployment, Service, ClusterRole and Roles. */}}
{{- define "flowscale.operatorName" -}}
{{- printf "%s-operator" (include "flowscale.fullname" .) -}}
{{- end -}}

{{/* Labels that select the operator pods. */}}
{{- define "flowscale.selectorLabels" -}}
app.kubernetes.io/name: flowscale-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels on every object of the chart. */}}
{{- define "flowscale.labels" -}}
{{ include "flowscale.selectorLabels" . }}
app.kubernetes.io/part-of: flowscale
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The operator's ServiceAccount: created by the chart or an existing one. */}}
{{- define "flowscale.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "flowscale.operatorName" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name: name the existing ServiceAccount when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
FLOWSCALE_LOG_LEVEL: the operator parses java.util.logging level names (JsonLogFormatter), so
the chart's SLF4J-style logLevel is translated.
*/}}
{{- define "flowscale.logLevel" -}}
{{- $names := dict "TRACE" "FINEST" "DEBUG" "FINE" "INFO" "INFO" "WARN" "WARNING" "ERROR" "SEVERE" -}}
{{- required (printf "logLevel %s: use TRACE, DEBUG, INFO, WARN or ERROR" .Values.logLevel) (get $names .Values.logLevel) -}}
{{- end -}}

{{/* The operator's image reference; the tag defaults to the chart's appVersion. */}}
{{- define "flowscale.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/*
The operator's permissions on StreamJobs and the runners' resources, used by the ClusterRole
(every namespace) and by the Roles (watched namespaces). Keep equal to the rules of
k8s-operator/deploy/operator.yaml (a test compares them).
*/}}
{{- define "flowscale.operatorRules" -}}
# StreamJobs: watched (informer) and read; status replaced against the latest version; no finalizers are set,
# but the runner's resources name their StreamJob with blockOwnerDeletion, which the
# OwnerReferencesPermissionEnforcement admission plugin (on in OpenShift) allows only with update on
# streamjobs/finalizers.
# k8s-operator's RbacMatchesApiCallsIT checks these rules against the calls the operator makes.
- apiGroups: ["flowscale.dev"]
  resources: ["streamjobs"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["flowscale.dev"]
  resources: ["streamjobs/status", "streamjobs/finalizers"]
  verbs: ["update"]
# The runner's workload, API Service, configuration and autoscaler memory (<job>-autoscaler): read from
# informer caches (list, watch), created, replaced; read (get) when a create finds the object already
# there (the cache had not seen it yet) and the client replaces it against the stored version; deleted by
# the garbage collector through owner references, so no delete verb. Runner pods are watched (an
# informer) so that their failures reach the StreamJob's status; a runner pod stuck Terminating on a lost
# node is deleted with grace period 0 so that its replacement can start.
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "update"]
- apiGroups: [""]
  resources: ["services", "configmaps"]
  verbs: ["get", "list", "watch", "create", "update"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["list", "watch", "delete"]
# A rescale that needs a bigger pod resizes the running one in place where the cluster can (1.33+).
- apiGroups: [""]
  resources: ["pods/resize"]
  verbs: ["patch"]
# The runner's control API token: one Secret per job, created once and read (get, no cache) to call the runner.
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "create"]
# The savepoint claim is only checked for existence.
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create"]
# StreamJobs with spec.flink.deployment: the FlinkDeployment is read (get, each pass; not watched) and its
# spec.flinkConfiguration's parallelism overrides replaced against the read resourceVersion (update).
- apiGroups: ["flink.apache.org"]
  resources: ["flinkdeployments"]
  verbs: ["get", "update"]
{{- end -}}

{{/* The subject of every binding: the operator's ServiceAccount in the release namespace. */}}
{{- define "flowscale.subjects" -}}
- kind: ServiceAccount
  name: {{ include "flowscale.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
{{- end -}}
