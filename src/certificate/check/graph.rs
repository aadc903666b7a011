//! The graph of a certificate, as `petgraph` digraphs over the node indices: every
//! edge (reachability), the mate graph's edges (acyclic; its longest path is the
//! depth, moves counting 1 and `covered_by` and witness edges 0) and the `covered_by`
//! edges (acyclic: a covering is no argument of its own).

use super::error::{invalid, CheckError};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// The three graphs, one node per certificate node (by index).
pub(super) struct Graphs {
    /// Every edge.
    all: DiGraph<(), u8, u32>,
    /// The mate graph's edges (nodes without a budget), weighted by plies.
    mate: DiGraph<(), u8, u32>,
    /// The `covered_by` edges.
    covers: DiGraph<(), (), u32>,
}

impl Graphs {
    /// `n` nodes, room for `edges` edges of which `covers` are `covered_by` ones.
    pub(super) fn new(n: usize, edges: usize, covers: usize) -> Graphs {
        let mut g = Graphs {
            all: DiGraph::with_capacity(n, edges),
            mate: DiGraph::with_capacity(n, edges),
            covers: DiGraph::with_capacity(n, covers),
        };
        for _ in 0..n {
            g.all.add_node(());
            g.mate.add_node(());
            g.covers.add_node(());
        }
        g
    }

    /// A move (1 ply) or witness (0) edge from `a` to `b`, in the mate graph too when
    /// `a` is a node of it.
    pub(super) fn add(&mut self, a: u32, b: u32, plies: u8, in_mate: bool) {
        let (a, b) = (NodeIndex::new(a as usize), NodeIndex::new(b as usize));
        self.all.add_edge(a, b, plies);
        if in_mate {
            self.mate.add_edge(a, b, plies);
        }
    }

    /// A `covered_by` edge (0 plies) from `a` to `b`, in the mate graph too when `a` is
    /// a node of it.
    pub(super) fn add_cover(&mut self, a: u32, b: u32, in_mate: bool) {
        let (a, b) = (NodeIndex::new(a as usize), NodeIndex::new(b as usize));
        self.all.add_edge(a, b, 0);
        self.covers.add_edge(a, b, ());
        if in_mate {
            self.mate.add_edge(a, b, 0);
        }
    }

    /// The `covered_by` edges form no cycle.
    ///
    /// # Errors
    /// [`CheckError::Invalid`] naming a node of a cycle (`ids`: node ids by index).
    pub(super) fn covers_acyclic(&self, ids: &[u64]) -> Result<(), CheckError> {
        petgraph::algo::toposort(&self.covers, None)
            .map_err(|c| invalid(ids[c.node_id().index()], "a cycle of covered_by"))?;
        Ok(())
    }

    /// The mate graph's longest path from `root` (an index), in plies.
    ///
    /// # Errors
    /// [`CheckError::Invalid`] naming a node of a cycle (`ids`: node ids by index).
    pub(super) fn depth(&self, root: usize, ids: &[u64]) -> Result<u32, CheckError> {
        let mg = &self.mate;
        let order = petgraph::algo::toposort(mg, None)
            .map_err(|c| invalid(ids[c.node_id().index()], "a cycle in a mate proof"))?;
        let mut d = vec![0u32; mg.node_count()];
        for &v in order.iter().rev() {
            d[v.index()] = mg
                .edges(v)
                .map(|e| d[e.target().index()] + u32::from(*e.weight()))
                .max()
                .unwrap_or(0);
        }
        Ok(d[root])
    }

    /// Every node is reachable from one of `starts` (indices).
    ///
    /// # Errors
    /// [`CheckError::Invalid`] naming the smallest id (`ids`: node ids by index) of the
    /// nodes that are not.
    pub(super) fn reachable(
        &self,
        starts: impl IntoIterator<Item = usize>,
        ids: &[u64],
    ) -> Result<(), CheckError> {
        let g = &self.all;
        let n = g.node_count();
        let mut seen = vec![false; n];
        for start in starts {
            let mut dfs = petgraph::visit::Dfs::new(g, NodeIndex::new(start));
            while let Some(v) = dfs.next(g) {
                seen[v.index()] = true;
            }
        }
        if let Some(id) = (0..n).filter(|&i| !seen[i]).map(|i| ids[i]).min() {
            return Err(invalid(id, "not reachable from the root"));
        }
        Ok(())
    }
}
