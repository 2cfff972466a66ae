//! Maximum matching in a general graph (Edmonds' blossom method), for the pairing's
//! questions "how many pairs can these players make?" and "can the rest of the round still be
//! paired?". Graphs are small (the players of one round), so the plain O(V³) form serves.

const NONE: usize = usize::MAX;

/// The size of a maximum matching of the graph on `0..n` whose edges are `adj` (each edge
/// listed from both ends).
pub fn max_matching(adj: &[Vec<usize>]) -> usize {
    let mut m = Blossom::new(adj);
    // A greedy start leaves fewer augmenting paths to search for.
    for (v, near) in adj.iter().enumerate() {
        if m.mate[v] == NONE
            && let Some(&u) = near.iter().find(|&&u| m.mate[u] == NONE && u != v)
        {
            m.mate[v] = u;
            m.mate[u] = v;
        }
    }
    for root in 0..adj.len() {
        if m.mate[root] == NONE
            && let Some(end) = m.find_path(root)
        {
            m.augment(end);
        }
    }
    m.mate.iter().filter(|&&u| u != NONE).count() / 2
}

struct Blossom<'a> {
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
}

impl<'a> Blossom<'a> {
    fn new(adj: &'a [Vec<usize>]) -> Blossom<'a> {
        let n = adj.len();
        Blossom {
            adj,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            in_blossom: vec![false; n],
        }
    }

    /// The base of the smallest blossom holding both `a` and `b` on the alternating tree.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adj.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Searches an augmenting path from the free vertex `root`; returns its free far end.
    fn find_path(&mut self, root: usize) -> Option<usize> {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for &to in &self.adj[v] {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let b = self.common_base(v, to);
                    self.in_blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, b, to);
                    self.mark_path(to, b, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = b;
                            if !self.used[i] {
                                self.used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    self.used[self.mate[to]] = true;
                    queue.push_back(self.mate[to]);
                }
            }
        }
        None
    }

    fn augment(&mut self, mut v: usize) {
        while v != NONE {
            let pv = self.parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut adj = vec![Vec::new(); n];
        for &(a, b) in edges {
            adj[a].push(b);
            adj[b].push(a);
        }
        adj
    }

    #[test]
    fn an_odd_cycle_with_a_tail_needs_a_blossom() {
        // A triangle 0-1-2 with tails 2-3 and 0-4 ... 4-5: a perfect matching of 6 exists
        // (4-5, 0-1, 2-3) only through the blossom when the greedy start picks 0-1 badly.
        let adj = graph(6, &[(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)]);
        assert_eq!(max_matching(&adj), 3);
        let adj = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
        assert_eq!(max_matching(&adj), 2);
        let adj = graph(4, &[(0, 1), (0, 2), (0, 3)]);
        assert_eq!(max_matching(&adj), 1);
    }
}
