//! The paper's published figures (Prajoda 2025, Figs. 4.1 and 4.2), cited as data: Python,
//! seconds per 100,000 checks, hardware not stated. They are compared with, never printed as,
//! our measurements.

/// One row of Figs. 4.1 and 4.2.
#[derive(Clone, Copy, Debug)]
pub struct Published {
    /// Our scenario name.
    pub scenario: &'static str,
    /// Traditional: mean seconds per 100,000 checks.
    pub traditional_s: f64,
    /// Traditional: standard deviation.
    pub traditional_std: f64,
    /// Boolean (the `paper` method): mean seconds per 100,000 checks.
    pub boolean_s: f64,
    /// Boolean: standard deviation.
    pub boolean_std: f64,
    /// Published speed improvement of Boolean over traditional, percent.
    pub improvement_pct: f64,
    /// Published memory, KB.
    pub traditional_kb: f64,
    /// Published memory, KB.
    pub boolean_kb: f64,
}

const fn row(scenario: &'static str, f: [f64; 7]) -> Published {
    Published {
        scenario,
        traditional_s: f[0],
        traditional_std: f[1],
        boolean_s: f[2],
        boolean_std: f[3],
        improvement_pct: f[4],
        traditional_kb: f[5],
        boolean_kb: f[6],
    }
}

/// The five published rows, in scenario order.
pub const PUBLISHED: [Published; 5] = [
    row(
        "row-win",
        [
            0.134855, 0.00711596, 0.343146, 0.00972725, -154.456, 32.0, 26.4,
        ],
    ),
    row(
        "column-win",
        [
            0.142307, 0.00542247, 0.355041, 0.00347737, -149.488, 33.6, 28.8,
        ],
    ),
    row(
        "diagonal-win",
        [
            0.504028, 0.0133226, 0.368633, 0.00639232, 26.8626, 38.4, 43.2,
        ],
    ),
    row(
        "full-board-draw",
        [
            0.507564, 0.00919174, 0.341384, 0.00967547, 32.7408, 44.8, 20.8,
        ],
    ),
    row(
        "early-game",
        [0.513491, 0.010506, 0.392646, 0.00762509, 23.534, 37.6, 35.2],
    ),
];

/// The published row for a scenario, if the paper has one.
pub fn for_scenario(scenario: &str) -> Option<Published> {
    PUBLISHED.iter().copied().find(|p| p.scenario == scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_improvements_follow_from_published_times() {
        // The paper's improvement is (traditional - boolean) / traditional, in percent.
        for p in PUBLISHED {
            let derived = (p.traditional_s - p.boolean_s) / p.traditional_s * 100.0;
            assert!((derived - p.improvement_pct).abs() < 0.01, "{}", p.scenario);
        }
    }
}
