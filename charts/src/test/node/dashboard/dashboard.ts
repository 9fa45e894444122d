/**
 * Type-checks the flowscale dashboard against Grafana's schema: the JSON must be assignable to
 * the schema's Dashboard type, every panel to the Panel type of a panel kind it uses (with that
 * kind's options and field config), every target to a Prometheus query.
 */
import type { DataQuery, Dashboard, Panel, AnnotationQuery, VariableModel, GraphFieldConfig } from '@grafana/schema';
import type { Options as TimeSeriesOptions } from '@grafana/schema/dist/esm/raw/composable/timeseries/panelcfg/x/TimeSeriesPanelCfg_types.gen';
import type { Options as StatOptions } from '@grafana/schema/dist/esm/raw/composable/stat/panelcfg/x/StatPanelCfg_types.gen';
import type { Options as BarGaugeOptions } from '@grafana/schema/dist/esm/raw/composable/bargauge/panelcfg/x/BarGaugePanelCfg_types.gen';
import dashboard from '../../../../flowscale/dashboards/flowscale-scaling.json';

/**
 * A schema type as a JSON import can meet it: TypeScript widens the JSON's strings to string,
 * so string enums and literal unions become string (and numeric enums number); every field's
 * kind (string, number, boolean, object, array) and every required field stay checked.
 */
type AsJson<T> = T extends string ? string
  : T extends number ? number
  : T extends boolean ? boolean
  : T extends ReadonlyArray<infer E> ? Array<AsJson<E>>
  : T extends object ? { [K in keyof T]: AsJson<T[K]> }
  : T;

/** The fields of the Prometheus data source's query that the dashboard uses (not part of @grafana/schema). */
interface PrometheusQuery extends DataQuery {
  expr: string;
  legendFormat?: string;
  range?: boolean;
  instant?: boolean;
}

/** A panel of one kind: the schema's Panel with that kind's options and field config, and Prometheus targets. */
type PanelOf<Options, FieldConfig = Record<string, unknown>> =
  AsJson<Omit<Panel<Options, FieldConfig>, 'targets' | 'options'>> & {
    type: string;
    options: AsJson<Options>;
    targets: Array<AsJson<PrometheusQuery>>;
  };

type KnownPanel = PanelOf<TimeSeriesOptions, GraphFieldConfig> | PanelOf<StatOptions> | PanelOf<BarGaugeOptions>;

/** The Prometheus annotation: the schema's AnnotationQuery with the data source's legacy fields. */
type PrometheusAnnotation = AsJson<AnnotationQuery> & {
  expr?: string;
  step?: string;
  useValueForTime?: boolean;
  titleFormat?: string;
  textFormat?: string;
  tagKeys?: string;
};

export const checked: AsJson<Dashboard> = dashboard;
export const panels: KnownPanel[] = dashboard.panels;
export const variables: Array<AsJson<VariableModel>> = dashboard.templating.list;
export const annotations: PrometheusAnnotation[] = dashboard.annotations.list;
